//! See `uriscan_fuzz::check_parse` for the properties.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| uriscan_fuzz::check_parse(data));
