//! What keeps the live desk answering when the hall's network is not
//! kind: a cap on open connections, and on those of one address (one
//! device cannot take every place), a connection dropped when it sends
//! nothing for a while (a phone that left the Wi-Fi mid-request, or a slow
//! client on purpose), deadlines for a request's head and body (a client
//! that trickles a request, never quiet, on purpose), and a rate of
//! requests per key.

use std::collections::HashMap;
use std::io;
use std::net::IpAddr;
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

/// Connections one address may hold open at once while half the places
/// or more are taken; more are then closed as they come. A browser opens
/// six at most to a server, so a phone, the projector or the director's
/// laptop never comes near; a device that holds connections open on
/// purpose cannot take more than half the places. With room to spare,
/// an address may hold more: a hall's phones behind one router that
/// translates their addresses (NAT) are one address to the server. The
/// server's own machine (a loopback address) is not counted.
pub const PER_ADDRESS: usize = 32;

/// A connection that sends nothing for this long is closed; so is one
/// that takes nothing of its answer for this long (a client that asks
/// for a page and never reads it).
pub const IDLE: Duration = Duration::from_secs(30);

/// How long a request's head (its line and headers) may take to arrive,
/// from when the server waits for it (a new connection, or the next
/// request on a connection kept open): a connection past it is closed, so
/// a client that trickles its headers a byte at a time gives its place
/// back. A phone sends its few hundred bytes of head at once.
pub const HEAD: Duration = Duration::from_secs(15);

/// How long a request's body may take to arrive once its head has: a card
/// is at most 64 KiB, some 3 KiB a second at the least. Past it the
/// request is answered 408 and its connection closed.
pub const BODY: Duration = Duration::from_secs(20);

/// The deadlines of a request's head and body: [`HEAD`] and [`BODY`], or
/// the seconds of `TILERANK_HEAD_SECONDS` and `TILERANK_BODY_SECONDS`.
#[derive(Clone, Copy, Debug)]
pub struct Deadlines {
    pub head: Duration,
    pub body: Duration,
}

impl Deadlines {
    pub fn from_env() -> anyhow::Result<Deadlines> {
        let seconds = |var: &str, what: &str, default: Duration| -> anyhow::Result<Duration> {
            let Some(value) = std::env::var_os(var) else {
                return Ok(default);
            };
            let value = value.to_string_lossy();
            value
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|&n| n > 0)
                .map(Duration::from_secs)
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "{var}={value:?}: expected a whole number above 0 (seconds {what}; the default is {})",
                        default.as_secs()
                    )
                })
        };
        Ok(Deadlines {
            head: seconds(
                "TILERANK_HEAD_SECONDS",
                "a request's head may take to arrive",
                HEAD,
            )?,
            body: seconds(
                "TILERANK_BODY_SECONDS",
                "a request's body may take to arrive",
                BODY,
            )?,
        })
    }
}

/// A request's body that fails once `deadline` has passed and it has not
/// all arrived, saying so in `passed` (the request is then answered 408).
pub struct BodyDeadline {
    inner: axum::body::Body,
    deadline: Pin<Box<Sleep>>,
    passed: Arc<std::sync::atomic::AtomicBool>,
}

impl BodyDeadline {
    pub fn new(
        inner: axum::body::Body,
        within: Duration,
        passed: Arc<std::sync::atomic::AtomicBool>,
    ) -> BodyDeadline {
        BodyDeadline {
            inner,
            deadline: Box::pin(tokio::time::sleep(within)),
            passed,
        }
    }
}

impl hyper::body::Body for BodyDeadline {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        let this = &mut *self;
        // (looked at first: a client that sends a byte at every poll
        // still meets it)
        if this.deadline.is_elapsed() {
            return this.past();
        }
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Pending => match this.deadline.as_mut().poll(cx) {
                Poll::Ready(()) => this.past(),
                Poll::Pending => Poll::Pending,
            },
            ready => ready,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

impl BodyDeadline {
    fn past<T>(&self) -> Poll<Option<Result<T, axum::Error>>> {
        self.passed.store(true, std::sync::atomic::Ordering::SeqCst);
        Poll::Ready(Some(Err(axum::Error::new(io::Error::new(
            io::ErrorKind::TimedOut,
            "the body took too long",
        )))))
    }
}

/// Listens, holding at most [`MAX_CONNECTIONS`] open, and, once half
/// of them are, at most [`PER_ADDRESS`] of one address.
pub struct Limited {
    listener: TcpListener,
    open: Arc<Semaphore>,
    /// The connections that may be open at once.
    max: usize,
    per_address: usize,
    /// Whether a loopback address is held to `per_address` too.
    count_loopback: bool,
    from: OpenFrom,
    idle: Duration,
}

impl Limited {
    pub fn new(listener: TcpListener, max: usize, idle: Duration) -> Limited {
        Limited {
            listener,
            open: Arc::new(Semaphore::new(max)),
            max,
            per_address: PER_ADDRESS,
            count_loopback: false,
            from: Arc::default(),
            idle,
        }
    }

    /// Takes a connection of `address` (its place among the open ones
    /// already taken) when the address has fewer than `per_address` open,
    /// or fewer than half the places are taken: what gives its place
    /// back when it closes.
    fn admit(&self, address: IpAddr) -> Option<Counted> {
        // (an IPv4 client of a server listening on IPv6 as itself)
        let address = address.to_canonical();
        if address.is_loopback() && !self.count_loopback {
            return Some(Counted(None));
        }
        let mut from = self.from.lock().unwrap_or_else(|e| e.into_inner());
        let open = from.entry(address).or_insert(0);
        let taken = self.max - self.open.available_permits();
        if *open >= self.per_address && 2 * taken > self.max {
            return None;
        }
        *open += 1;
        Some(Counted(Some((Arc::clone(&self.from), address))))
    }
}

/// A connection's place among those of its address (none: not counted),
/// given back when dropped.
struct Counted(Option<(OpenFrom, IpAddr)>);

/// The connections open from each address counted.
type OpenFrom = Arc<Mutex<HashMap<IpAddr, usize>>>;

impl Drop for Counted {
    fn drop(&mut self) {
        if let Some((from, address)) = self.0.take() {
            let mut from = from.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(open) = from.get_mut(&address) {
                *open -= 1;
                if *open == 0 {
                    from.remove(&address);
                }
            }
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
                    // (one address past its share: closed at once, its
                    // place free again)
                    let Some(counted) = self.admit(addr.ip()) else {
                        continue;
                    };
                    let _ = stream.set_nodelay(true);
                    return (
                        Connection {
                            stream,
                            _permit: permit,
                            _counted: counted,
                            idle: self.idle,
                            quiet: None,
                            stuck: None,
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
/// it closes; reading from it fails once it has been quiet for too long,
/// writing to it once the client has taken nothing for as long.
pub struct Connection {
    stream: TcpStream,
    _permit: OwnedSemaphorePermit,
    _counted: Counted,
    idle: Duration,
    /// Since when a read has waited.
    quiet: Option<Pin<Box<Sleep>>>,
    /// Since when a write has waited.
    stuck: Option<Pin<Box<Sleep>>>,
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
        let this = &mut *self;
        match Pin::new(&mut this.stream).poll_write(cx, buf) {
            Poll::Ready(r) => {
                this.stuck = None;
                Poll::Ready(r)
            }
            Poll::Pending => {
                let idle = this.idle;
                let stuck = this
                    .stuck
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(idle)));
                match stuck.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the client took nothing of the answer for too long",
                    ))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

use std::future::Future;

/// The requests a referee's key may make at once ([`Rate`]): a card
/// checked at every pause of the typing, and many cards a session.
pub const BURST: u32 = 120;

/// Then the requests a key may make a second: a key that made too many
/// may make the next in half a second, and the answer says to wait a few
/// seconds (`Retry-After`: [`Rate::retry_after`]).
pub const PER_SECOND: f64 = 2.0;

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

    /// The whole seconds after which a key that was refused may make a
    /// request again, at the most (an empty bucket refills one request
    /// in `1 / per_second`).
    pub fn retry_after(&self) -> u64 {
        (1.0 / self.per_second).ceil().max(1.0) as u64
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

    /// A key refused for too many requests may send again within a
    /// second (`Retry-After: 1`): the refusal and the entry page both say
    /// to wait a few seconds, in each language, and neither a minute.
    #[test]
    fn a_key_refused_for_too_many_may_send_again_in_seconds_as_the_words_say() {
        use tilerank::event_folder::Refusal;
        use tilerank::lang::Lang;
        let rate = Rate::new(BURST, PER_SECOND);
        for _ in 0..BURST {
            assert!(rate.allow("a"));
        }
        assert!(!rate.allow("a"));
        assert_eq!(rate.retry_after(), 1);
        std::thread::sleep(Duration::from_secs(rate.retry_after()));
        assert!(rate.allow("a"), "allowed again after Retry-After");
        for lang in Lang::ALL {
            let few = if lang == Lang::En {
                "a few seconds"
            } else {
                "數秒"
            };
            let server = Refusal::TooManyRequests.words(lang);
            let page = lang.words().entry_too_many;
            for said in [server, page] {
                assert!(said.contains(few), "{lang}: {said}");
                assert!(
                    !said.contains("minute") && !said.contains("分鐘"),
                    "{lang}: {said}"
                );
            }
        }
    }

    /// Once half the places are taken, connections of one address past
    /// its share are closed as they come; a place given back is taken
    /// again; with room to spare an address may hold more; the server's
    /// own machine is not counted.
    #[test]
    fn one_address_holds_its_share_of_the_places() {
        use std::io::Read;
        use std::sync::mpsc;
        let serve = |count_loopback: bool, max: usize| {
            let (to_test, accepted) = mpsc::channel();
            let (address_to, address) = mpsc::channel();
            std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap();
                runtime.block_on(async move {
                    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
                    address_to.send(listener.local_addr().unwrap()).unwrap();
                    let mut limited = Limited::new(listener, max, IDLE);
                    limited.per_address = 2;
                    limited.count_loopback = count_loopback;
                    loop {
                        let (connection, _) = axum::serve::Listener::accept(&mut limited).await;
                        if to_test.send(connection).is_err() {
                            break;
                        }
                    }
                });
            });
            (address.recv().unwrap(), accepted)
        };
        let wait = Duration::from_secs(10);
        // whether the server closed the connection (else it holds it open)
        let closed = |client: &mut std::net::TcpStream| {
            client
                .set_read_timeout(Some(Duration::from_millis(300)))
                .unwrap();
            matches!(client.read(&mut [0u8; 1]), Ok(0))
        };
        // (4 places: the third connection takes the third)
        let (address, accepted) = serve(true, 4);
        let connect = || std::net::TcpStream::connect(address).unwrap();
        let mut clients = vec![connect(), connect()];
        let first = accepted.recv_timeout(wait).unwrap();
        let _second = accepted.recv_timeout(wait).unwrap();
        let mut third = connect();
        // (closed once accepted: read until the server has had its turn)
        let deadline = Instant::now() + wait;
        while !closed(&mut third) {
            assert!(Instant::now() < deadline, "the third connection stays open");
        }
        assert!(accepted.try_recv().is_err(), "the third is not served");
        assert!(!closed(&mut clients[0]) && !closed(&mut clients[1]));
        drop(first);
        clients.push(connect());
        let _fourth = accepted
            .recv_timeout(wait)
            .expect("a place given back is taken");
        assert!(!closed(&mut clients[2]));

        // `n` connections to a server of `max` places, each served
        let all_served = |count_loopback: bool, max: usize, n: usize| {
            let (address, accepted) = serve(count_loopback, max);
            let clients: Vec<_> = (0..n)
                .map(|_| std::net::TcpStream::connect(address).unwrap())
                .collect();
            for k in 0..n {
                assert!(
                    accepted.recv_timeout(wait).is_ok(),
                    "connection {k} of {n}, {max} places"
                );
            }
            drop(clients);
        };
        // with room to spare (64 places), an address may hold more
        all_served(true, 64, 5);
        // the machine's own connections are not counted (6 places: a
        // counted fourth would be closed)
        all_served(false, 6, 4);
    }

    /// An IPv4 client of a server listening on IPv6 is its IPv4 address.
    #[test]
    fn an_address_is_counted_as_itself_whichever_way_it_came() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let listener = runtime.block_on(TcpListener::bind("127.0.0.1:0")).unwrap();
        let mut limited = Limited::new(listener, 8, IDLE);
        limited.per_address = 1;
        let mapped: IpAddr = "::ffff:127.0.0.1".parse().unwrap();
        let plain: IpAddr = "127.0.0.1".parse().unwrap();
        // (5 of the 8 places taken: past half)
        let _taken = Arc::clone(&limited.open).try_acquire_many_owned(5);
        let held = [limited.admit(mapped), limited.admit(mapped)];
        assert!(held.iter().all(Option::is_some), "loopback, not counted");
        limited.count_loopback = true;
        let first = limited.admit(mapped);
        assert!(first.is_some());
        assert!(limited.admit(plain).is_none(), "the same address");
        drop(first);
        assert!(limited.admit(plain).is_some(), "its place given back");
    }

    /// A client that asks and never reads the answer: once the system's
    /// buffers are full, the write waits, and fails after the idle time.
    #[test]
    fn a_client_that_takes_nothing_is_closed() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let listener = runtime.block_on(TcpListener::bind("127.0.0.1:0")).unwrap();
        let address = listener.local_addr().unwrap();
        let mut limited = Limited::new(listener, 4, Duration::from_millis(300));
        let client = std::net::TcpStream::connect(address).unwrap();
        let written = runtime.block_on(async {
            let (mut connection, _) = axum::serve::Listener::accept(&mut limited).await;
            let chunk = vec![b'x'; 1 << 16];
            tokio::time::timeout(Duration::from_secs(120), async {
                loop {
                    std::future::poll_fn(|cx| Pin::new(&mut connection).poll_write(cx, &chunk))
                        .await?;
                }
            })
            .await
        });
        let err: io::Result<()> = written.expect("the write gives up before the test does");
        assert_eq!(err.unwrap_err().kind(), io::ErrorKind::TimedOut);
        drop(client);
    }

    #[test]
    fn the_bucket_refills() {
        let rate = Rate::new(1, 1000.0);
        assert!(rate.allow("a"));
        std::thread::sleep(Duration::from_millis(5));
        assert!(rate.allow("a"));
    }
}
