//! A small SMTP server for the e-mail tests: it speaks enough of the protocol for lettre, keeps
//! every message it accepts, and can be told to refuse for now (451) or for good (550).

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Accept,
    TryLater,
    Refuse,
}

#[derive(Clone)]
pub struct SmtpServer {
    pub port: u16,
    pub messages: Arc<Mutex<Vec<String>>>,
    pub mode: Arc<Mutex<Mode>>,
}

impl SmtpServer {
    pub async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let server =
            Self { port: listener.local_addr().unwrap().port(), messages: Arc::default(), mode: Arc::new(Mutex::new(Mode::Accept)) };
        let s = server.clone();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let s = s.clone();
                tokio::spawn(async move {
                    let _ = s.session(socket).await;
                });
            }
        });
        server
    }

    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    pub fn set_mode(&self, mode: Mode) {
        *self.mode.lock().unwrap() = mode;
    }

    pub fn received(&self) -> Vec<String> {
        self.messages.lock().unwrap().clone()
    }

    async fn session(&self, socket: tokio::net::TcpStream) -> std::io::Result<()> {
        let (read, mut write) = socket.into_split();
        let mut lines = BufReader::new(read).lines();
        write.write_all(b"220 test.local ESMTP\r\n").await?;
        while let Some(line) = lines.next_line().await? {
            let upper = line.to_ascii_uppercase();
            let reply: &[u8] = if upper.starts_with("EHLO") || upper.starts_with("HELO") {
                b"250-test.local\r\n250 8BITMIME\r\n"
            } else if upper.starts_with("MAIL FROM") {
                match *self.mode.lock().unwrap() {
                    Mode::Accept => b"250 2.1.0 OK\r\n",
                    Mode::TryLater => b"451 4.3.0 Tijdelijk niet beschikbaar\r\n",
                    Mode::Refuse => b"550 5.1.1 Geweigerd\r\n",
                }
            } else if upper.starts_with("RCPT TO") || upper.starts_with("RSET") || upper.starts_with("NOOP") {
                b"250 2.0.0 OK\r\n"
            } else if upper.starts_with("DATA") {
                write.write_all(b"354 Go ahead\r\n").await?;
                let mut message = String::new();
                while let Some(line) = lines.next_line().await? {
                    if line == "." {
                        break;
                    }
                    message.push_str(&line);
                    message.push('\n');
                }
                self.messages.lock().unwrap().push(message);
                b"250 2.0.0 Queued\r\n"
            } else if upper.starts_with("QUIT") {
                write.write_all(b"221 2.0.0 Bye\r\n").await?;
                return Ok(());
            } else {
                b"502 5.5.2 Unknown command\r\n"
            };
            write.write_all(reply).await?;
        }
        Ok(())
    }
}
