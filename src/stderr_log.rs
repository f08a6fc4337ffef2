//! The binaries' logger: log records to stderr, `-v` turning on the stages' debug records.

/// Prints log records to stderr: debug records as they are, others as `scoresheet: LEVEL: message`.
struct StderrLog;

impl log::Log for StderrLog {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        metadata.level() <= log::max_level()
    }
    fn log(&self, record: &log::Record) {
        if self.enabled(record.metadata()) {
            match record.level() {
                log::Level::Debug | log::Level::Trace => eprintln!("{}", record.args()),
                level => eprintln!("scoresheet: {}: {}", level.as_str().to_lowercase(), record.args()),
            }
        }
    }
    fn flush(&self) {}
}

/// Sends log records to stderr: warnings and errors, and with `verbose` the debug records too.
pub fn init(verbose: bool) {
    if log::set_logger(&StderrLog).is_ok() {
        log::set_max_level(if verbose { log::LevelFilter::Debug } else { log::LevelFilter::Warn });
    }
}
