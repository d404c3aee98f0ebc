//! `oauth1 send`'s answer streamed to standard output, never held whole: an endless answer
//! leaves the command's memory flat, a long one arrives byte for byte, a refusal's long body is
//! searched in its first part only (and says so), a reader that stops early ends an endless
//! answer quietly, and `--timeout` ends one that never stops. The servers are loopback sockets
//! that answer by hand.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The size of an endless answer's chunks, and of what the test reads at a time.
const CHUNK: usize = 1 << 16;
/// How much an endless answer sends through the command before its memory is read.
#[cfg(target_os = "linux")]
const VOLUME: usize = 256 << 20;
/// The most memory the command may hold at its peak, whatever the answer's size.
#[cfg(target_os = "linux")]
const PEAK: usize = 64 << 20;
/// The most bytes of a refusal kept for its diagnosis (`send.rs`'s `MAX_SEARCHED`).
const SEARCHED: usize = 1 << 20;

/// A loopback server that reads each request's head, then answers it with `answer`, each
/// connection on a thread of its own; its port.
fn serve(answer: impl Fn(&mut TcpStream, u16) + Send + Sync + 'static) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let answer = Arc::new(answer);
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let answer = Arc::clone(&answer);
            std::thread::spawn(move || {
                let mut head = Vec::new();
                let mut buf = [0u8; 4096];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                answer(&mut stream, port);
            });
        }
    });
    port
}

/// Answers `status` with a chunked body that never ends: until the client goes.
fn endless(stream: &mut TcpStream, status: &str) {
    let head = format!("HTTP/1.1 {status}\r\nTransfer-Encoding: chunked\r\n\r\n");
    let mut chunk = format!("{CHUNK:x}\r\n").into_bytes();
    chunk.extend((0..CHUNK).map(|i| b"endless answer\n"[i % 15]));
    chunk.extend_from_slice(b"\r\n");
    if stream.write_all(head.as_bytes()).is_err() {
        return;
    }
    while stream.write_all(&chunk).is_ok() {}
}

/// `len` bytes of every value, in no pattern a chunk boundary would hide.
fn noise(len: usize) -> Vec<u8> {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state.to_le_bytes()[0]
        })
        .collect()
}

/// `oauth1 send args`, its standard output and standard error piped.
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_oauth1"))
        .arg("send")
        .args(args)
        .args(["--consumer-key", "ck"])
        .env("OAUTH1_CONSUMER_SECRET", "cs")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the oauth1 binary runs")
}

fn send(args: &[&str]) -> Output {
    spawn(args).wait_with_output().unwrap()
}

/// The most memory process `pid` has held (its high-water mark), in bytes; 0 once it is gone.
#[cfg(target_os = "linux")]
fn peak_memory(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|kb| {
            kb.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<usize>()
                .ok()
        })
        .map_or(0, |kb| kb * 1024)
}

/// An answer that never ends goes through the command as it comes: after 256 MiB of it, the
/// command has never held more than 64 MiB.
#[cfg(target_os = "linux")]
#[test]
fn an_endless_answer_is_streamed_in_flat_memory() {
    use std::sync::atomic::{AtomicUsize, Ordering};

    let port = serve(|stream, _| endless(stream, "200 OK"));
    let mut child = spawn(&[&format!("http://127.0.0.1:{port}/x"), "--timeout", "60"]);
    let mut stdout = child.stdout.take().unwrap();
    let streamed = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&streamed);
    let reader = std::thread::spawn(move || {
        let mut buf = vec![0u8; CHUNK];
        while let Ok(n @ 1..) = stdout.read(&mut buf) {
            counted.fetch_add(n, Ordering::Relaxed);
        }
    });
    let started = Instant::now();
    let mut peak = 0;
    while streamed.load(Ordering::Relaxed) < VOLUME
        && peak < PEAK
        && started.elapsed() < Duration::from_secs(30)
    {
        std::thread::sleep(Duration::from_millis(20));
        peak = peak.max(peak_memory(child.id()));
    }
    peak = peak.max(peak_memory(child.id()));
    let streamed = streamed.load(Ordering::Relaxed);
    child.kill().unwrap();
    let out = child.wait_with_output().unwrap();
    reader.join().unwrap();
    assert!(
        peak < PEAK,
        "the command held {} MiB at its peak, {} MiB written out, after {:?}; {}",
        peak >> 20,
        streamed >> 20,
        started.elapsed(),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        streamed >= VOLUME,
        "{streamed} bytes written out in {:?}",
        started.elapsed()
    );
}

/// A long answer arrives on standard output byte for byte, with a Content-Length or chunked
/// in chunks of every size: what a chunk boundary cuts (a UTF-8 sequence, a CR LF) is whole.
#[test]
fn a_long_answer_arrives_byte_for_byte() {
    let body = Arc::new(noise(5 << 20));
    let sent = Arc::clone(&body);
    let port = serve(move |stream, _| {
        let _ = write!(
            stream,
            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n",
            sent.len()
        );
        let _ = stream.write_all(&sent);
    });
    let out = send(&[&format!("http://127.0.0.1:{port}/x")]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "HTTP/1.1 200 OK\n");
    assert!(
        out.stdout == *body,
        "{} bytes of {}",
        out.stdout.len(),
        body.len()
    );

    let sent = Arc::clone(&body);
    let port = serve(move |stream, _| {
        let _ = write!(
            stream,
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        );
        let (mut at, mut size) = (0, 1);
        while at < sent.len() {
            let end = (at + size).min(sent.len());
            let _ = write!(stream, "{:x}\r\n", end - at);
            let _ = stream.write_all(&sent[at..end]);
            let _ = stream.write_all(b"\r\n");
            (at, size) = (end, size % 70_001 + 997);
        }
        let _ = stream.write_all(b"0\r\n\r\n");
    });
    let out = send(&[&format!("http://127.0.0.1:{port}/x"), "-i"]);
    assert_eq!(out.status.code(), Some(0));
    let head = b"HTTP/1.1 200 OK\ntransfer-encoding: chunked\n\n";
    assert!(out.stdout.starts_with(head), "{:?}", &out.stdout[..80]);
    assert!(
        out.stdout[head.len()..] == *body,
        "{} bytes",
        out.stdout.len()
    );
}

/// A refusal that echoes its base string, then goes on for 3 MiB.
fn long_refusal(port: u16) -> Vec<u8> {
    let mut body = format!(
        "Invalid signature. Expected signature base string: GET&http%3A%2F%2F127.0.0.1%3A{port}%2Fx&oauth_consumer_key%3Dck\n"
    )
    .into_bytes();
    body.extend(noise(3 << 20));
    body
}

/// A refusal longer than the part kept for its diagnosis: written out whole, its echoed base
/// string still found in the part kept, and standard error says how much was searched.
#[test]
fn a_long_refusal_is_written_whole_and_searched_in_its_first_part() {
    let port = serve(|stream, port| {
        let body = long_refusal(port);
        let _ = write!(
            stream,
            "HTTP/1.1 401 Unauthorized\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        let _ = stream.write_all(&body);
    });
    let out = send(&[&format!("http://127.0.0.1:{port}/x")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        out.stdout == long_refusal(port),
        "{} bytes",
        out.stdout.len()
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with(&format!(
            "HTTP/1.1 401 Unauthorized\nnote: only the answer's first {SEARCHED} bytes were searched for an echoed base string\nThe server echoed the base string it computed; compared with this request's:\n"
        )),
        "{stderr}"
    );
    assert!(
        stderr.ends_with("error: the server answered 401 Unauthorized\n"),
        "{stderr}"
    );
}

/// A reader that takes the first kilobyte of an endless answer, then goes: the command ends
/// at once, quietly, with the status the answer gives it (a refusal's first part still
/// searched).
#[test]
fn a_reader_that_stops_early_ends_an_endless_answer_quietly() {
    for (status, code, said) in [
        ("200 OK", 0, "HTTP/1.1 200 OK\n".to_owned()),
        (
            "401 Unauthorized",
            1,
            format!("HTTP/1.1 401 Unauthorized\nnote: only the answer's first {SEARCHED} bytes were searched for an echoed base string\nerror: the server answered 401 Unauthorized\n"),
        ),
    ] {
        let port = serve(move |stream, _| endless(stream, status));
        let mut child = spawn(&[&format!("http://127.0.0.1:{port}/x"), "--timeout", "20"]);
        let mut first = [0u8; 1024];
        child
            .stdout
            .take()
            .unwrap()
            .read_exact(&mut first)
            .unwrap();
        assert!(first.starts_with(b"endless answer\n"));
        let started = Instant::now();
        while child.try_wait().unwrap().is_none() && started.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(code), "{status}: {out:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), said);
    }
}

/// An answer that never ends, read as fast as it comes, still ends at `--timeout`: the
/// deadline is the whole exchange's, body included.
#[test]
fn an_endless_answer_ends_at_the_timeout() {
    let port = serve(|stream, _| endless(stream, "200 OK"));
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_oauth1"))
        .args(["send", &format!("http://127.0.0.1:{port}/x")])
        .args(["--timeout", "1.5", "--consumer-key", "ck"])
        .env("OAUTH1_CONSUMER_SECRET", "cs")
        .stdout(Stdio::null())
        .output()
        .unwrap();
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("HTTP/1.1 200 OK\nerror: reading the response of http://127.0.0.1:{port}: the answer did not end within 1.5 s (--timeout gives more)\n")
    );
    assert!(took < Duration::from_secs(10), "{took:?}");
}
