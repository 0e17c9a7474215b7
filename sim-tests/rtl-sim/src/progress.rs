//! Progress on long work (a first Verilator build, a scenario, a fuzz seed): an `indicatif`
//! spinner with the elapsed time on standard error, drawn only when standard error is a
//! terminal (nothing in logs and CI).

use indicatif::{ProgressBar, ProgressFinish, ProgressStyle};
use std::time::Duration;

/// A spinner saying `msg`, cleared when dropped (or by [`done`]).
pub fn spinner(msg: impl Into<String>) -> ProgressBar {
    let p = ProgressBar::new_spinner().with_finish(ProgressFinish::AndClear);
    p.set_style(ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("a valid template"));
    p.set_message(msg.into());
    p.enable_steady_tick(Duration::from_millis(120));
    p
}

/// Clear a spinner from the terminal.
pub fn done(p: ProgressBar) {
    p.finish_and_clear();
}

/// Run `f` with a spinner saying `msg`, cleared before `f`'s result is returned (so what the
/// caller prints next is not drawn over).
pub fn during<T>(msg: impl Into<String>, f: impl FnOnce() -> T) -> T {
    let p = spinner(msg);
    let r = f();
    done(p);
    r
}
