//! The receive side around the decoder (CB-LT §6.6 "Context", "Insufficient
//! symbols", "After delivery"): the golden model of what the decoder RTL does with one message
//! context, a tombstone and an idle timer.
//!
//! * **One context.** The first valid symbol while the context is free opens it (k, MSG_SIZE,
//!   MSG_ID); symbols of another message are INVALID (`OtherMessage`) until it closes. The key is
//!   MSG_ID (the NIC keys contexts by source address and MSG_ID; the core sees one source).
//! * **Delivery.** COMPLETE delivers `x_0 ‖ … ‖ x_{k−1}` truncated to MSG_SIZE, then a
//!   completion record, and frees the context.
//! * **Tombstone.** The delivered message's header stays behind: a later symbol with its MSG_ID
//!   is AFTER_COMPLETE (send STOP again), whatever else its header says, as the spec's step 1
//!   comes before validation. A new completion replaces it.
//! * **Idle timer.** [`Receiver::tick`] is the timer's tick. A context that saw no valid symbol
//!   (REDUNDANT or better) for `idle_limit` ticks fails: a FAILED record with its rank and
//!   known_mask, nothing delivered, no tombstone. A tombstone with no AFTER_COMPLETE for
//!   `idle_limit` ticks is forgotten (its lifetime must stay below the sender's MSG_ID reuse
//!   interval). `idle_limit = 0` never expires either.

use super::decoder::{Decoder, Status};
use super::header::Header;
use super::{full_mask, CbltError, HEADER_LEN};

/// A completion (delivered) or failure (expired) record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RxRecord {
    pub failed: bool,
    /// The message's header with `BITSET = 0` (the STOP for a delivery).
    pub header: Header,
    pub rank: usize,
    pub known_mask: u64,
    /// Symbols the context took (opening one included), the redundant and invalid ones among them.
    pub seen: u64,
    pub redundant: u64,
    pub invalid: u64,
}

/// Core-wide event counts (the RTL's counter outputs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RxCounts {
    pub symbols: u64,
    pub invalid: u64,
    pub redundant: u64,
    /// INNOVATIVE and COMPLETE.
    pub innovative: u64,
    pub after_complete: u64,
    pub complete: u64,
    pub failed: u64,
}

/// What one symbol did: its status, and the rank and known_mask reported with it (for
/// AFTER_COMPLETE those of the tombstoned message, otherwise the live context's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RxResult {
    pub status: Status,
    pub rank: usize,
    pub known_mask: u64,
    /// The header a STOP echoes for COMPLETE and AFTER_COMPLETE.
    pub stop: Option<Header>,
}

#[derive(Clone, Debug)]
pub struct Receiver {
    s: usize,
    k_max: usize,
    idle_limit: u32,
    ctx: Option<Decoder>,
    ctx_idle: u32,
    tomb: Option<Header>,
    tomb_idle: u32,
    /// Delivered messages and records, oldest first (the caller drains them).
    pub messages: Vec<Vec<u8>>,
    pub records: Vec<RxRecord>,
    pub counts: RxCounts,
}

impl Receiver {
    pub fn new(s: usize, k_max: usize, idle_limit: u32) -> Result<Receiver, CbltError> {
        Decoder::with_k_max(s, k_max)?;
        Ok(Receiver {
            s,
            k_max,
            idle_limit,
            ctx: None,
            ctx_idle: 0,
            tomb: None,
            tomb_idle: 0,
            messages: vec![],
            records: vec![],
            counts: RxCounts::default(),
        })
    }

    /// The live view: the open context's rank and known_mask, else the tombstoned message's
    /// (complete), else nothing.
    pub fn rank_known(&self) -> (usize, u64) {
        match (&self.ctx, &self.tomb) {
            (Some(d), _) => (d.rank(), d.known_mask()),
            (None, Some(t)) => (t.k(), full_mask(t.k())),
            (None, None) => (0, 0),
        }
    }
    pub fn is_open(&self) -> bool {
        self.ctx.is_some()
    }

    /// A received UDP payload (header ‖ payload).
    pub fn push_packet(&mut self, p: &[u8]) -> RxResult {
        self.counts.symbols += 1;
        let status = match Header::parse(p) {
            Err(why) => match self.ctx.as_mut() {
                Some(d) => d.push_packet(p),
                None => Status::Invalid(why),
            },
            Ok(h) if self.tomb.is_some_and(|t| t.msg_id == h.msg_id) => {
                let t = self.tomb.unwrap();
                self.tomb_idle = 0;
                self.counts.after_complete += 1;
                return RxResult { status: Status::AfterComplete, rank: t.k(), known_mask: full_mask(t.k()), stop: Some(t) };
            }
            Ok(h) => {
                let payload = &p[HEADER_LEN..];
                match self.ctx.as_mut() {
                    Some(d) => d.push(&h, payload),
                    None => {
                        let mut d = Decoder::with_k_max(self.s, self.k_max).expect("checked in new");
                        let st = d.push(&h, payload);
                        if !matches!(st, Status::Invalid(_)) {
                            self.ctx = Some(d);
                            self.ctx_idle = 0;
                        }
                        st
                    }
                }
            }
        };
        match status {
            Status::Invalid(_) => self.counts.invalid += 1,
            Status::Redundant => {
                self.counts.redundant += 1;
                self.ctx_idle = 0;
            }
            Status::Innovative => {
                self.counts.innovative += 1;
                self.ctx_idle = 0;
            }
            Status::Complete => {
                self.counts.innovative += 1;
                self.counts.complete += 1;
                let d = self.ctx.take().expect("complete implies a context");
                let h = d.stop().expect("complete");
                self.messages.push(d.message().expect("complete"));
                self.records.push(record(&d, h, false));
                self.tomb = Some(h);
                self.tomb_idle = 0;
                let k = h.k();
                return RxResult { status, rank: k, known_mask: full_mask(k), stop: Some(h) };
            }
            Status::AfterComplete => unreachable!("a context is freed when it completes"),
        }
        let (rank, known_mask) = self.rank_known();
        RxResult { status, rank, known_mask, stop: None }
    }

    /// One tick of the idle timer.
    pub fn tick(&mut self) {
        if self.idle_limit == 0 {
            return;
        }
        if let Some(d) = &self.ctx {
            self.ctx_idle += 1;
            if self.ctx_idle >= self.idle_limit {
                let (k, size, id) = d.key().expect("an open context has a key");
                self.records.push(record(d, Header::new(k, size as u32, id, 0), true));
                self.counts.failed += 1;
                self.ctx = None;
            }
        }
        if self.tomb.is_some() {
            self.tomb_idle += 1;
            if self.tomb_idle >= self.idle_limit {
                self.tomb = None;
            }
        }
    }
}

fn record(d: &Decoder, header: Header, failed: bool) -> RxRecord {
    RxRecord {
        failed,
        header,
        rank: d.rank(),
        known_mask: d.known_mask(),
        seen: d.seen,
        redundant: d.redundant,
        invalid: d.invalid,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cblt::encoder::Encoder;
    use crate::cblt::header::Invalid;

    fn stream(k_bytes: usize, id: u8, seed: u32) -> (Vec<u8>, Encoder) {
        let msg: Vec<u8> = (0..k_bytes).map(|i| (i * 7 + id as usize) as u8).collect();
        let e = Encoder::with_default_table(&msg, 16, id, seed).unwrap();
        (msg, e)
    }

    #[test]
    fn delivers_then_tombstones_then_opens_the_next_message() {
        let mut rx = Receiver::new(16, 64, 0).unwrap();
        let (m1, mut e1) = stream(100, 1, 5);
        let (m2, mut e2) = stream(40, 2, 6);
        let mut late = vec![];
        loop {
            let c = e1.next_symbol().to_bytes();
            let r = rx.push_packet(&c);
            if r.status == Status::Complete {
                break;
            }
            late.push(c);
        }
        assert_eq!(rx.messages, vec![m1]);
        assert!(!rx.is_open());
        // late symbols of message 1, even a mangled one with its MSG_ID, are AFTER_COMPLETE
        let r = rx.push_packet(&late[0]);
        assert_eq!((r.status, r.rank, r.known_mask), (Status::AfterComplete, 7, 0x7f));
        let mut bad = late[0].clone();
        bad.truncate(20);
        assert_eq!(rx.push_packet(&bad).status, Status::AfterComplete);
        // a truncated packet has no MSG_ID
        assert!(matches!(rx.push_packet(&bad[..5]).status, Status::Invalid(Invalid::Truncated)));
        // message 2 opens a fresh context and message 1 stays tombstoned meanwhile
        assert!(matches!(rx.push_packet(&e2.next_symbol().to_bytes()).status, Status::Innovative | Status::Complete));
        assert_eq!(rx.push_packet(&late[1]).status, Status::AfterComplete);
        while rx.messages.len() < 2 {
            rx.push_packet(&e2.next_symbol().to_bytes());
        }
        assert_eq!(rx.messages[1], m2);
        assert_eq!(rx.records.len(), 2);
        assert!(!rx.records[0].failed && rx.records[0].header.msg_id == 1 && rx.records[0].rank == 7);
        // the tombstone is now message 2's: message 1's symbols open a context again
        assert!(matches!(rx.push_packet(&late[0]).status, Status::Innovative));
        assert_eq!(rx.counts.complete, 2);
    }

    #[test]
    fn idle_contexts_fail_and_tombstones_expire() {
        let mut rx = Receiver::new(16, 64, 3).unwrap();
        let (_, mut e) = stream(160, 9, 77);
        rx.push_packet(&e.next_symbol().to_bytes());
        rx.tick();
        rx.tick();
        // any valid symbol (redundant too) restarts the timer
        assert!(!matches!(rx.push_packet(&e.next_symbol().to_bytes()).status, Status::Invalid(_)));
        let (rank, known) = rx.rank_known();
        rx.tick();
        rx.tick();
        assert!(rx.is_open() && rx.records.is_empty());
        rx.tick();
        assert!(!rx.is_open());
        let r = &rx.records[0];
        assert!(r.failed && r.header.msg_id == 9 && r.header.k() == 10 && r.seen == 2);
        assert_eq!((r.rank, r.known_mask), (rank, known));
        assert!(rx.messages.is_empty() && rx.counts.failed == 1);
        // failed messages leave no tombstone: the next symbol opens a fresh context
        assert_eq!(rx.push_packet(&e.next_symbol().to_bytes()).rank, 1);

        let mut rx = Receiver::new(16, 64, 2).unwrap();
        let (_, mut e) = stream(16, 3, 1);
        let c = e.next_symbol().to_bytes();
        assert_eq!(rx.push_packet(&c).status, Status::Complete);
        rx.tick();
        assert_eq!(rx.push_packet(&c).status, Status::AfterComplete);
        rx.tick();
        rx.tick();
        assert_eq!(rx.push_packet(&c).status, Status::Complete, "the tombstone expired after 2 idle ticks");
    }

    #[test]
    fn k_above_the_core_is_invalid_and_opens_nothing() {
        let mut rx = Receiver::new(16, 8, 0).unwrap();
        let (_, mut e) = stream(16 * 9, 4, 2);
        let r = rx.push_packet(&e.next_symbol().to_bytes());
        assert_eq!(r.status, Status::Invalid(Invalid::KAboveCore));
        assert!(!rx.is_open() && rx.counts.invalid == 1);
    }
}
