//! The binaries' logger: log records to stderr, `-v` turning on the stages' debug records and
//! `-vv` the decoder's trace too.

/// The `-v` flag both binaries take.
#[derive(clap::Args)]
pub struct Verbosity {
    /// Print what each stage finds to stderr (the page stage's rulings, columns, blocks and
    /// printed numbers; the reader's choices); -vv also the decoder's trace (its letter-set
    /// probes and beam per half-move).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

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
