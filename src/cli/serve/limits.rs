//! What keeps the live desk answering when the hall's network is not
//! kind: a cap on open connections, a connection dropped when it sends
//! nothing for a while (a phone that left the Wi-Fi mid-request, or a slow
//! client on purpose), and a rate of requests per key.

use std::collections::HashMap;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Sleep;

/// Connections open at once; more wait to be accepted.
pub const MAX_CONNECTIONS: usize = 256;

/// A connection that sends nothing for this long is closed.
pub const IDLE: Duration = Duration::from_secs(30);

/// Listens, holding at most [`MAX_CONNECTIONS`] open.
pub struct Limited {
    listener: TcpListener,
    open: Arc<Semaphore>,
    idle: Duration,
}

impl Limited {
    pub fn new(listener: TcpListener, max: usize, idle: Duration) -> Limited {
        Limited {
            listener,
            open: Arc::new(Semaphore::new(max)),
            idle,
        }
    }
}

impl axum::serve::Listener for Limited {
    type Io = Connection;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            let permit = Arc::clone(&self.open)
                .acquire_owned()
                .await
                .expect("the semaphore is never closed");
            match self.listener.accept().await {
                Ok((stream, addr)) => {
                    let _ = stream.set_nodelay(true);
                    return (
                        Connection {
                            stream,
                            _permit: permit,
                            idle: self.idle,
                            quiet: None,
                        },
                        addr,
                    );
                }
                // (out of file descriptors, or a connection reset before
                // it was accepted: wait a moment, go on)
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.listener.local_addr()
    }
}

/// An open connection: its place among the open ones is given back when
/// it closes; reading from it fails once it has been quiet for too long.
pub struct Connection {
    stream: TcpStream,
    _permit: OwnedSemaphorePermit,
    idle: Duration,
    /// Since when a read has waited.
    quiet: Option<Pin<Box<Sleep>>>,
}

impl AsyncRead for Connection {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        match Pin::new(&mut this.stream).poll_read(cx, buf) {
            Poll::Ready(r) => {
                this.quiet = None;
                Poll::Ready(r)
            }
            Poll::Pending => {
                let idle = this.idle;
                let quiet = this
                    .quiet
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(idle)));
                match quiet.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the connection was quiet too long",
                    ))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

use std::future::Future;

/// Requests a key may make: a bucket of [`Rate::burst`] that refills
/// [`Rate::per_second`]. Checking a card as it is typed asks once a
/// pause in the typing; a referee types one card in a few minutes.
pub struct Rate {
    burst: f64,
    per_second: f64,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl Rate {
    pub fn new(burst: u32, per_second: f64) -> Rate {
        Rate {
            burst: f64::from(burst),
            per_second,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one request from `who`'s bucket; false when it is empty.
    pub fn allow(&self, who: &str) -> bool {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        // (forget the buckets that are full again: the map stays small)
        if buckets.len() > 10_000 {
            let (burst, rate) = (self.burst, self.per_second);
            buckets.retain(|_, (left, at)| {
                *left + now.duration_since(*at).as_secs_f64() * rate < burst
            });
        }
        let (left, at) = buckets.entry(who.to_string()).or_insert((self.burst, now));
        *left = (*left + now.duration_since(*at).as_secs_f64() * self.per_second).min(self.burst);
        *at = now;
        if *left >= 1.0 {
            *left -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_gets_its_burst_then_waits() {
        let rate = Rate::new(3, 0.0);
        assert!(rate.allow("a"));
        assert!(rate.allow("a"));
        assert!(rate.allow("a"));
        assert!(!rate.allow("a"), "the fourth is refused");
        assert!(rate.allow("b"), "another key has its own bucket");
    }

    #[test]
    fn the_bucket_refills() {
        let rate = Rate::new(1, 1000.0);
        assert!(rate.allow("a"));
        std::thread::sleep(Duration::from_millis(5));
        assert!(rate.allow("a"));
    }
}
