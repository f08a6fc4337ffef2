//! The binaries' logger: log records to stderr, `-v` turning on the stages' debug records and
//! `-vv` the decoder's trace too.

/// Prints log records to stderr: debug records as they are, trace records after `trace`, others
/// as `scoresheet: LEVEL: message`.
struct StderrLog;

impl log::Log for StderrLog {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        metadata.level() <= log::max_level()
    }
    fn log(&self, record: &log::Record) {
        if self.enabled(record.metadata()) {
            match record.level() {
                log::Level::Debug => eprintln!("{}", record.args()),
                log::Level::Trace => eprintln!("trace {}", record.args()),
                level => eprintln!("scoresheet: {}: {}", level.as_str().to_lowercase(), record.args()),
            }
        }
    }
    fn flush(&self) {}
}

/// Sends log records to stderr: warnings and errors; with `verbosity` 1 (`-v`) the debug records
/// too, with 2 or more (`-vv`) the trace records as well.
pub fn init(verbosity: u8) {
    if log::set_logger(&StderrLog).is_ok() {
        log::set_max_level(match verbosity {
            0 => log::LevelFilter::Warn,
            1 => log::LevelFilter::Debug,
            _ => log::LevelFilter::Trace,
        });
    }
}
