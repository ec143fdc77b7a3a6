//! Progress bars on standard error (indicatif's, hidden when standard error is not a terminal).

use indicatif::{ProgressBar, ProgressStyle};

/// A bar of `len` steps drawn with the indicatif `template` (the default bar if the template
/// does not parse).
pub fn with_template(len: u64, template: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()));
    bar
}

/// A bar of `len` steps headed `what`, with the count, the time taken and the time left.
pub fn counted(len: u64, what: &str) -> ProgressBar {
    with_template(
        len,
        &format!("{what} {{bar:40}} {{pos}}/{{len}} {{elapsed_precise}} eta {{eta}}"),
    )
}
