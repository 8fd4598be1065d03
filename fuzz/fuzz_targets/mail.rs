//! See `uriscan_fuzz::check_mail` for the properties.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| uriscan_fuzz::check_mail(data));
