//! See `uriscan_fuzz::check_scan` for the properties.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| uriscan_fuzz::check_scan(data));
