//! How many input bytes the scanner examines, counted in this crate's own
//! tests only: the linear-time argument of `DESIGN.md` is checked by
//! counting, over adversarial inputs, the bytes examined per input byte.
//!
//! Outside `cfg(test)` [`examined`] is an empty inline function, so the
//! counting costs nothing in a real build.

/// Notes that `bytes` input bytes were examined (read and classified).
#[inline(always)]
pub fn examined(bytes: usize) {
    #[cfg(test)]
    COUNT.with(|count| count.set(count.get() + bytes as u64));
    #[cfg(not(test))]
    let _ = bytes;
}

#[cfg(test)]
thread_local! {
    static COUNT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Returns the bytes examined on this thread since the last call, and
/// starts counting again from zero.
#[cfg(test)]
pub fn take() -> u64 {
    COUNT.with(|count| count.replace(0))
}
