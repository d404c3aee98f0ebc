//! The buffers that encodings are written into: a [`Writer`] made with room for its final
//! length up front (the base string's, the header's); [`Chunks`], which hands what is written
//! on a bufferful at a time (the base string streamed into an HMAC); the stack [`Scratch`]
//! that encoding twice goes through; and [`Counted`] bytes, whose escapes are counted once for
//! both the length and the encoding. They use the kernels (`kernels.rs`) to encode.

use super::kernels::{
    clean_blocks, encode_pieces, escaped_count, is_clean, short_and_clean, write_entries, BUFFER,
    ENCODE_BLOCK, ONCE, TWICE,
};

/// The stack buffer that [`Writer::twice`] encodes through, zeroed once for all the
/// parameters of a base string, and only by a writer that uses it.
pub(crate) struct Scratch([u8; BUFFER]);

impl Scratch {
    pub(crate) fn new() -> Self {
        Scratch([0; BUFFER])
    }
}

/// Bytes and how many of them are not unreserved, counted once for both the length of their
/// encoding and the encoding.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Counted<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) escapes: usize,
}

impl<'a> Counted<'a> {
    /// `bytes`, counted.
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Counted {
            bytes,
            escapes: escaped_count(bytes),
        }
    }

    /// The length of `enc(bytes)`.
    pub(crate) fn encoded_len(self) -> usize {
        self.bytes.len() + 2 * self.escapes
    }
}

/// Writes text and encodings into a buffer made with room for its final length up front (the
/// base string's or the header's, computed first), so that it never moves. `once` stores each
/// escaped byte's whole table entry in place and moves on by the encoding's length, so that
/// nothing passes through the stack (a header may carry a PLAINTEXT signature); only the room
/// a block may need is zeroed for that. A length given too short still gives the right text:
/// the buffer then grows.
pub(crate) struct Writer {
    buf: Vec<u8>,
}

/// Room past the end for the last table entry written whole.
pub(super) const SLACK: usize = 8;

impl Writer {
    /// A writer for `len` bytes.
    pub(crate) fn with_len(len: usize) -> Self {
        Writer {
            buf: Vec::with_capacity(len + SLACK),
        }
    }

    /// Writes `bytes` as they are.
    #[inline]
    pub(crate) fn raw(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// Writes `enc(bytes)`.
    pub(crate) fn once(&mut self, bytes: &[u8]) {
        if short_and_clean(bytes) {
            self.raw(bytes);
        } else {
            self.encode_once(bytes);
        }
    }

    /// Writes `enc(bytes)` of counted bytes: as they are when there is nothing to escape.
    pub(crate) fn once_counted(&mut self, counted: Counted<'_>) {
        if counted.escapes == 0 {
            self.raw(counted.bytes);
        } else {
            self.encode_once(counted.bytes);
        }
    }

    /// Writes `enc(enc(bytes))` in one pass, as the base string needs for parameter names and
    /// values (§3.4.1.1 over §3.4.1.3.2), through `scratch` (made, zeroed, at its first use):
    /// long mixed text encodes faster a block at a time into a stack buffer than byte by byte
    /// in place. Not for secrets, whose escapes would stay behind in the buffer.
    pub(crate) fn twice(&mut self, bytes: &[u8], scratch: &mut Option<Scratch>) {
        let scratch = scratch.get_or_insert_with(Scratch::new);
        let _ = encode_pieces::<8, ()>(bytes, &TWICE, &mut scratch.0, |piece| {
            self.raw(piece);
            Ok(())
        });
    }

    /// Writes `enc(bytes)`: runs of clean blocks copied, the rest a table entry a byte.
    fn encode_once(&mut self, bytes: &[u8]) {
        const W: usize = 4;
        let mut rest = bytes;
        while !rest.is_empty() {
            let clean = clean_blocks(rest);
            self.raw(&rest[..clean]);
            let (block, tail) = rest[clean..].split_at((rest.len() - clean).min(ENCODE_BLOCK));
            // In place, in zeroed room for the block at its longest (3 bytes a byte) and a
            // whole entry, within the capacity; past it (a length given too short), the rest
            // of the block is appended escape by escape.
            let start = self.buf.len();
            let room = (start + 3 * block.len() + W).min(self.buf.capacity());
            self.buf.resize(room.max(start), 0);
            let (n, done) = write_entries::<W, false>(block, &ONCE, &mut self.buf[start..]);
            self.buf.truncate(start + n);
            for &b in &block[done..] {
                let entry = &ONCE[usize::from(b)];
                self.buf
                    .extend_from_slice(&entry[..usize::from(entry[W - 1])]);
            }
            rest = tail;
        }
    }

    /// The number of bytes written.
    pub(crate) fn len(&self) -> usize {
        self.buf.len()
    }

    /// The text written.
    pub(crate) fn finish(self) -> Vec<u8> {
        self.buf
    }
}

/// What the base string is written into: a [`Writer`] (to keep it) or [`Chunks`] (to stream
/// it), by the same code.
pub(crate) trait Text {
    /// Writes `bytes` as they are.
    fn raw(&mut self, bytes: &[u8]);
    /// Writes `enc(bytes)`.
    fn once(&mut self, bytes: &[u8]);
    /// Writes `enc(enc(bytes))`, through `scratch` if the writer needs one (it is made at its
    /// first use: a writer that needs none zeroes none).
    fn twice(&mut self, bytes: &[u8], scratch: &mut Option<Scratch>);
    /// The number of bytes written.
    fn len(&self) -> usize;
}

impl Text for Writer {
    fn raw(&mut self, bytes: &[u8]) {
        Writer::raw(self, bytes);
    }

    fn once(&mut self, bytes: &[u8]) {
        Writer::once(self, bytes);
    }

    fn twice(&mut self, bytes: &[u8], scratch: &mut Option<Scratch>) {
        Writer::twice(self, bytes, scratch);
    }

    fn len(&self) -> usize {
        Writer::len(self)
    }
}

/// Writes text and encodings into a buffer on the stack, handed to `sink` whenever it is full
/// and at the end: the base string streamed into an HMAC, never built whole. Not for secrets
/// (the buffer is not wiped).
pub(crate) struct Chunks<'s> {
    buf: [u8; CHUNK],
    /// The bytes in `buf`.
    held: usize,
    /// The bytes handed on.
    sent: usize,
    sink: &'s mut dyn FnMut(&[u8]),
}

/// The bytes [`Chunks`] holds before handing them on: eight hash blocks.
const CHUNK: usize = 512;

impl<'s> Chunks<'s> {
    pub(crate) fn new(sink: &'s mut dyn FnMut(&[u8])) -> Self {
        Chunks {
            buf: [0; CHUNK],
            held: 0,
            sent: 0,
            sink,
        }
    }

    fn flush(&mut self) {
        if self.held > 0 {
            (self.sink)(&self.buf[..self.held]);
            self.sent += self.held;
            self.held = 0;
        }
    }

    /// Hands on what is held.
    pub(crate) fn finish(mut self) {
        self.flush();
    }
}

impl Text for Chunks<'_> {
    fn raw(&mut self, bytes: &[u8]) {
        let end = self.held + bytes.len();
        if let Some(room) = self.buf.get_mut(self.held..end) {
            room.copy_from_slice(bytes);
            self.held = end;
            return;
        }
        self.flush();
        if let Some(room) = self.buf.get_mut(..bytes.len()) {
            room.copy_from_slice(bytes);
            self.held = bytes.len();
        } else {
            // Longer than the buffer: handed on as it is.
            (self.sink)(bytes);
            self.sent += bytes.len();
        }
    }

    fn once(&mut self, bytes: &[u8]) {
        if short_and_clean(bytes) {
            self.raw(bytes);
        } else {
            self.encode(bytes, &ONCE);
        }
    }

    fn twice(&mut self, bytes: &[u8], _: &mut Option<Scratch>) {
        self.encode(bytes, &TWICE);
    }

    fn len(&self) -> usize {
        self.sent + self.held
    }
}

impl Chunks<'_> {
    /// Writes the encoding of `bytes` by `table` ([`ONCE`] or [`TWICE`]) straight into the
    /// buffer: runs of clean blocks, and a clean last block, copied; every other block a
    /// table entry a byte, where the buffer has room for it at its longest (at most 5 bytes a
    /// byte and a whole entry, [`BUFFER`]), handed on first if it has not.
    fn encode<const W: usize>(&mut self, bytes: &[u8], table: &[[u8; W]; 256]) {
        let mut rest = bytes;
        while !rest.is_empty() {
            let clean = clean_blocks(rest);
            if clean > 0 {
                self.raw(&rest[..clean]);
            }
            let (block, tail) = rest[clean..].split_at((rest.len() - clean).min(ENCODE_BLOCK));
            if tail.is_empty() && is_clean(block) {
                self.raw(block);
            } else {
                if CHUNK - self.held < BUFFER {
                    self.flush();
                }
                let (n, _) = write_entries::<W, true>(block, table, &mut self.buf[self.held..]);
                self.held += n;
            }
            rest = tail;
        }
    }
}
