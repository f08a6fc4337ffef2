//! The user's `scoresheet` offers the commands users need; the developers' tools (synth, eval,
//! the page stage's evaluations) are in `scoresheet-dev`.

use std::process::Command;

fn help(binary: &str, args: &[&str]) -> String {
    let out = Command::new(binary).args(args).arg("--help").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The command names of a `--help` page's "Commands:" list.
fn commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn the_user_binary_lists_only_user_commands() {
    let user = help(env!("CARGO_BIN_EXE_scoresheet"), &[]);
    assert_eq!(commands(&user), ["read", "merge", "transcribe", "segment", "recognize", "help"], "{user}");
    let segment = help(env!("CARGO_BIN_EXE_scoresheet"), &["segment"]);
    assert!(!segment.contains("--eval"), "{segment}");
}

#[test]
fn the_developers_binary_holds_the_tools() {
    let dev = help(env!("CARGO_BIN_EXE_scoresheet-dev"), &[]);
    assert_eq!(commands(&dev), ["synth", "eval", "segment", "help"], "{dev}");
    let segment = help(env!("CARGO_BIN_EXE_scoresheet-dev"), &["segment"]);
    assert!(segment.contains("--eval-hcs") && segment.contains("--eval-synth"), "{segment}");
}
