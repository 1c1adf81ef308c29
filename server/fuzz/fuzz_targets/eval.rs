#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| foreach_fuzz::eval(data));
