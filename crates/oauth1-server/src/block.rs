//! Running a verification's future to completion on the calling thread, for blocking servers.
//!
//! Written here rather than taken from an executor crate because of its first step: the future
//! is polled once with a waker that does nothing, and with the memory stores it is ready then,
//! so a blocking verification costs no allocation and no synchronization beyond the stores'
//! own. Only a store that really waits gets the parking waker.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

/// Wakes the thread blocked on the future.
struct Unpark(Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

/// Polls `future` on this thread until it is ready, parking the thread between polls. It is
/// taken already pinned where the caller made it: taken by value, a verification's future
/// (about a kilobyte) would be copied once more to be pinned.
pub(crate) fn on<F: Future>(mut future: Pin<&mut F>) -> F::Output {
    if let Poll::Ready(output) = future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        return output;
    }
    // Pending: it holds the no-op waker; the next poll hands it one that wakes this thread.
    let waker = Waker::from(Arc::new(Unpark(thread::current())));
    let mut context = Context::from_waker(&waker);
    loop {
        match future.as_mut().poll(&mut context) {
            Poll::Ready(output) => return output,
            // A wake before the park makes the park return at once: nothing is missed. A
            // spurious return polls again.
            Poll::Pending => thread::park(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::pin::pin;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Mutex;
    use std::time::Duration;

    /// Pending until another thread sets the flag and wakes the waker of the latest poll.
    struct WokenLater {
        done: Arc<AtomicBool>,
        waker: Arc<Mutex<Option<Waker>>>,
        started: bool,
    }

    impl Future for WokenLater {
        type Output = &'static str;

        fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
            if self.done.load(Ordering::SeqCst) {
                return Poll::Ready("done");
            }
            *self.waker.lock().unwrap() = Some(cx.waker().clone());
            if !self.started {
                self.started = true;
                let (done, waker) = (Arc::clone(&self.done), Arc::clone(&self.waker));
                thread::spawn(move || {
                    thread::sleep(Duration::from_millis(20));
                    done.store(true, Ordering::SeqCst);
                    if let Some(waker) = waker.lock().unwrap().take() {
                        waker.wake();
                    }
                });
            }
            Poll::Pending
        }
    }

    #[test]
    fn a_ready_future_is_answered_at_once() {
        assert_eq!(on(pin!(async { 7 })), 7);
    }

    #[test]
    fn a_pending_future_parks_the_thread_until_it_is_woken() {
        // Its first waker is the no-op one; the second poll's waker, which the other thread
        // wakes, must end the wait.
        let future = WokenLater {
            done: Arc::new(AtomicBool::new(false)),
            waker: Arc::default(),
            started: false,
        };
        assert_eq!(on(pin!(future)), "done");
    }
}
