//! Panics inside a task's run or check become that task's one-line failure
//! ("panicked at src/x.rs:10: message") instead of a backtrace on stderr;
//! any other panic still reports as usual.

use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};

thread_local! {
    /// How many `catching` calls are active on this thread.
    static CATCHING: Cell<usize> = const { Cell::new(0) };
    /// The last caught panic's message and location.
    static LAST: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs the hook that keeps caught panics quiet (once, in `main`).
pub fn install_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if CATCHING.with(Cell::get) == 0 {
            default(info);
            return;
        }
        let message = payload_message(info.payload());
        let at = info.location().map_or(String::new(), |l| format!(" at {}:{}", l.file(), l.line()));
        LAST.with(|last| *last.borrow_mut() = Some(format!("{message}{at}")));
    }));
}

/// Runs `f`; a panic inside it becomes `Err` with its message and location.
pub fn catching<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    CATCHING.with(|c| c.set(c.get() + 1));
    let result = catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(c.get() - 1));
    result.map_err(|payload| {
        LAST.with(|last| last.borrow_mut().take()).unwrap_or_else(|| payload_message(payload.as_ref()))
    })
}

fn payload_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_its_message() {
        assert_eq!(catching(|| 7), Ok(7));
        let error = catching(|| -> u32 { panic!("index {} out of range", 3) }).unwrap_err();
        assert!(error.starts_with("index 3 out of range"), "{error}");
    }
}
