//! The tab-separated data files (games, openings, perft and mate suites, the shared data): one
//! record a line, columns split on tabs, blank lines and `#` comments left out.

use anyhow::{Context, Result};
use std::path::Path;

/// One record of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row<'a> {
    /// 1-based line number in the file.
    pub line: usize,
    /// The columns, each trimmed of surrounding white space.
    pub cols: Vec<&'a str>,
}

impl<'a> Row<'a> {
    /// Column `i`, if the row has it.
    pub fn get(&self, i: usize) -> Option<&'a str> {
        self.cols.get(i).copied()
    }

    /// The first column (never missing: a record is not blank).
    pub fn first(&self) -> &'a str {
        self.cols[0]
    }
}

/// The records of `text`: every line but blank ones and those whose first non-blank character
/// is `#`.
pub fn rows(text: &str) -> impl Iterator<Item = Row<'_>> {
    text.lines().enumerate().filter_map(|(i, raw)| {
        let trimmed = raw.trim();
        (!trimmed.is_empty() && !trimmed.starts_with('#')).then(|| Row {
            line: i + 1,
            cols: raw.split('\t').map(str::trim).collect(),
        })
    })
}

/// Reads a whole file, naming it in the error.
pub fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_blank_lines_and_columns() {
        let text = "# comment\n\n  \na\tb \t c\n  # indented comment\nplain line\r\n";
        let rows: Vec<Row> = rows(text).collect();
        assert_eq!(
            rows,
            [
                Row {
                    line: 4,
                    cols: vec!["a", "b", "c"]
                },
                Row {
                    line: 6,
                    cols: vec!["plain line"]
                },
            ]
        );
        assert_eq!(rows[0].get(2), Some("c"));
        assert_eq!(rows[0].get(3), None);
        assert_eq!(rows[1].first(), "plain line");
    }
}
