//! Where the engine looks for its files (`EvalDir`, `BookDir`): a relative path is taken from
//! the folder of the engine's own executable, an absolute one as it is, as YaneuraOu does.
//!
//! Why not the working directory: GUIs start engines with a working directory of their own
//! (ShogiGUI its own folder, Shogidokoro the engine's, cshogi the script's), so the only
//! folder a user can rely on is the one they unzipped the engine into. [`FileState`] says
//! whether a file read before has been replaced since.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// A file as it was when it was read (its path, size and time): a file replaced since is read
/// again (a net at `isready`), or not trusted (a book read on the fly).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileState {
    pub path: PathBuf,
    pub len: u64,
    pub modified: Option<SystemTime>,
}

impl FileState {
    /// The state of `path` now; `None` when it cannot be looked at.
    pub fn of(path: &Path) -> Option<FileState> {
        let meta = std::fs::metadata(path).ok()?;
        Some(FileState {
            path: path.to_path_buf(),
            len: meta.len(),
            modified: meta.modified().ok(),
        })
    }
}

/// The folder of the running executable, if the system says where it is.
pub fn binary_dir() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    exe.parent().map(Path::to_path_buf)
}

/// `path` as the engine reads it: absolute as it is, relative from `base` (the executable's
/// folder, see [`binary_dir`]; the working directory when that is unknown).
pub fn resolve_from(base: Option<&Path>, path: &str) -> PathBuf {
    let p = Path::new(path);
    match base {
        // `has_root` as well: on Windows `\nets` is not absolute (no drive) but is not
        // relative to the executable's folder either.
        Some(base) if !p.is_absolute() && !p.has_root() => base.join(p),
        _ => p.to_path_buf(),
    }
}

/// `path` taken from the executable's folder ([`resolve_from`] with [`binary_dir`]).
pub fn resolve(path: &str) -> PathBuf {
    resolve_from(binary_dir().as_deref(), path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_are_taken_from_the_base_and_absolute_ones_as_they_are() {
        let base = Path::new("/opt/soppo");
        assert_eq!(resolve_from(Some(base), "eval"), Path::new("/opt/soppo/eval"));
        assert_eq!(
            resolve_from(Some(base), "nets/水匠 5"),
            Path::new("/opt/soppo/nets/水匠 5")
        );
        assert_eq!(resolve_from(Some(base), "/srv/nets"), Path::new("/srv/nets"));
        assert_eq!(resolve_from(None, "eval"), Path::new("eval"));
        assert_eq!(resolve_from(Some(base), ""), Path::new("/opt/soppo/"));
    }

    /// Windows' forms of a path (run under Wine by `.ci/windows.sh`, or on Windows).
    #[cfg(windows)]
    #[test]
    fn windows_paths_with_drives_backslashes_unc_and_japanese_names() {
        let base = Path::new(r"C:\Program Files\ソッポ 0.1");
        assert_eq!(
            resolve_from(Some(base), "eval"),
            Path::new(r"C:\Program Files\ソッポ 0.1\eval")
        );
        // A relative path with either separator stays under the base.
        assert_eq!(
            resolve_from(Some(base), r"nets\水匠 5"),
            Path::new(r"C:\Program Files\ソッポ 0.1\nets\水匠 5")
        );
        assert!(resolve_from(Some(base), "nets/水匠 5").starts_with(base));
        // Absolute: a drive, a UNC share, a verbatim path; and a rooted one without a drive.
        for path in [
            r"D:\将棋\評価 関数",
            "d:/shogi/eval",
            r"\\server\share\eval",
            r"\\?\C:\eval",
            r"\eval",
        ] {
            assert_eq!(resolve_from(Some(base), path), Path::new(path), "{path}");
        }
    }

    #[test]
    fn the_binary_dir_holds_the_running_test() {
        let dir = binary_dir().expect("the test binary's folder");
        assert!(dir.is_dir(), "{}", dir.display());
    }
}
