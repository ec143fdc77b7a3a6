//! The shared data directory (`shared/data` beside the checkout): the lishogi games and the
//! mate problems the training commands read by default.

use std::path::{Path, PathBuf};

/// Environment variable naming the shared data directory (as for the integration tests).
pub const ENV: &str = "SOPPO_SHARED_DATA";

/// The data directory to use: `arg` (a `--data` option), else `$SOPPO_SHARED_DATA`, else
/// `shared/data` beside the checkout this binary was built from.
pub fn dir(arg: Option<PathBuf>) -> PathBuf {
    arg.or_else(|| std::env::var_os(ENV).map(PathBuf::from))
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"))
}
