//! Helpers shared by the `soppo-tools` integration tests.

#![allow(dead_code, reason = "each test binary uses a different subset")]

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// The built `soppo-tools` binary, ready for arguments.
pub fn tools() -> Command {
    Command::cargo_bin("soppo-tools").expect("soppo-tools binary is built for integration tests")
}

pub fn stdout_of(out: &std::process::Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

/// The last non-blank line.
pub fn last_line(text: &str) -> &str {
    text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("")
}

/// A file in this test binary's temporary directory, removed when dropped.
pub struct TempFile(PathBuf);

impl TempFile {
    pub fn new(name: &str, contents: &str) -> TempFile {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("soppo-tools-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, contents).unwrap();
        TempFile(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
