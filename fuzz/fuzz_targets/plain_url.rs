#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::plain_url(data));
