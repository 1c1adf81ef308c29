//! `base64gzip` and `base64gunzip`.
//!
//! OpenTofu compresses with Go's `compress/gzip` at the default level: a 10-byte header with no name and mtime 0,
//! OS byte 255 ("unknown"), then `Write`, `Flush` (a sync flush: an empty stored block) and `Close` (an empty,
//! final stored block). We write that framing by hand around `flate2`'s raw deflate at the same level, so short
//! inputs come out byte for byte the same; for longer ones Go's and miniz's match finders pick different matches,
//! which both sides decompress to the same text (the differential test compares by decompressing).
//!
//! `base64gunzip` (OpenTofu 1.9+, not in Terraform) reads concatenated gzip members as Go's reader does, and stops
//! at the string budget so that a small "gzip bomb" cannot exhaust memory.

use super::api::{FnCtx, FnResult, arg_err, err};
use crate::value::Value;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use flate2::{Compress, Compression, Crc, FlushCompress, Status};
use std::io::Read;

pub fn base64gzip(cx: &mut FnCtx<'_>, text: &str) -> FnResult {
    cx.tick(text.len() as u64 / 64)?;
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    let mut deflate = Compress::new(Compression::default(), false);
    out.reserve(text.len() / 2 + 64);
    let mut input = text.as_bytes();
    loop {
        let before = deflate.total_in();
        out.reserve(1024);
        let status = deflate.compress_vec(input, &mut out, FlushCompress::Sync);
        input = &input[(deflate.total_in() - before) as usize..];
        match status {
            // The sync flush is complete once all input is consumed and the output buffer was not filled.
            Ok(Status::Ok | Status::BufError) if input.is_empty() && out.len() < out.capacity() => break,
            Ok(_) => {}
            Err(e) => return err(format!("compression failed: {e}")),
        }
    }
    // Go's `Close`: an empty final stored block.
    out.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
    let mut crc = Crc::new();
    crc.update(text.as_bytes());
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    let encoded = STANDARD.encode(out);
    cx.check_str(encoded.len())?;
    Ok(Value::string(encoded))
}

pub fn base64gunzip(cx: &mut FnCtx<'_>, text: &str) -> FnResult {
    let Ok(bytes) = STANDARD.decode(text) else { return arg_err(0, "failed to decode base64 data") };
    let limit = cx.host.budget().max_string;
    let mut out = Vec::new();
    let reader = flate2::read::MultiGzDecoder::new(bytes.as_slice());
    if let Err(e) = reader.take(limit as u64 + 1).read_to_end(&mut out) {
        return arg_err(0, format!("failed to gunzip bytestream: {e}"));
    }
    cx.check_str(out.len())?;
    cx.tick(out.len() as u64 / 64)?;
    match String::from_utf8(out) {
        Ok(t) => Ok(Value::string(t)),
        Err(_) => arg_err(0, "the decompressed data is not valid UTF-8, which a string cannot hold"),
    }
}
