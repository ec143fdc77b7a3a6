//! Helpers shared by the `soppo-tools` integration tests.

#![allow(dead_code, reason = "each test binary uses a different subset")]

use assert_cmd::Command;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Output;

/// The built `soppo-tools` binary, ready for arguments.
pub fn tools() -> Command {
    Command::cargo_bin("soppo-tools").expect("soppo-tools binary is built for integration tests")
}

/// `soppo-tools ARGS…`, run to its end.
pub fn run<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> Output {
    tools().args(args).output().expect("soppo-tools runs")
}

/// `soppo-tools COMMAND FILE ARGS…`, run to its end.
pub fn run_on(command: &str, file: &Path, args: &[&str]) -> Output {
    tools()
        .arg(command)
        .arg(file)
        .args(args)
        .output()
        .expect("soppo-tools runs")
}

pub fn stdout_of(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

/// The last non-blank line.
pub fn last_line(text: &str) -> &str {
    text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("")
}

/// The shared data directory (`$SOPPO_SHARED_DATA`, else `shared/data` beside the checkout),
/// or `None` after a skip message when it lacks `file`.
pub fn shared_data_with(file: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("SOPPO_SHARED_DATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"),
        PathBuf::from,
    );
    if dir.join(file).exists() {
        Some(dir)
    } else {
        eprintln!("skipping: {file} not found in {}", dir.display());
        None
    }
}

/// This test binary's temporary directory.
fn scratch_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("soppo-tools-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A directory in this test binary's temporary directory, removed with what it holds when
/// dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir = scratch_dir().join(name);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn write(&self, file: &str, contents: &str) {
        std::fs::write(self.0.join(file), contents).unwrap();
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A file in this test binary's temporary directory, removed when dropped.
pub struct TempFile(PathBuf);

impl TempFile {
    pub fn new(name: &str, contents: &str) -> TempFile {
        let path = scratch_dir().join(name);
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
