//! `FecNic`: CB-LT encode and decode on the NIC, through any [`Device`], with the same results
//! as the software codec (`soft`) — byte for byte, status for status.
//!
//! Every wait polls a status register against a deadline ([`FecNic::timeout`]) and fails with
//! [`NicError::Timeout`] instead of hanging.

use crate::device::{Device, NicError, Result};
use crate::soft::EncodeParams;
use crate::stream::{decode_stream, Receive, RxConfig, StreamReport};
use hdl::cblt::decoder::Status;
use hdl::cblt::encoder_csr::{buffer_image, start_writes, words_per_symbol};
use hdl::cblt::header::{Header, Invalid};
use hdl::cblt::receiver::{RxRecord, RxResult};
use hdl::cblt::table::DegreeTable;
use hdl::cblt::{symbols_for, HEADER_LEN};
use hdl::nic::{fields, reg, Register, MAGIC, REGISTERS, RX_MESSAGE, RX_STAGE, TX_MESSAGE, TX_SYMBOL, VERSION};
use std::time::{Duration, Instant};

/// What the NIC was built with (`CAPS`, `LAYOUT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// Symbol size S in bytes.
    pub s: usize,
    /// The most source symbols per message.
    pub k_max: usize,
    /// Bytes per bus word (4).
    pub word_bytes: usize,
    /// Source symbol i starts at word `i << sa` of the message windows.
    pub sa: usize,
    /// TX symbol queue depth.
    pub tx_slots: usize,
    /// Completion queue depth.
    pub cq_depth: usize,
}

impl Caps {
    /// The largest message, k_max · S bytes.
    pub fn max_message(&self) -> usize {
        self.s * self.k_max
    }
    fn words_per_symbol(&self) -> usize {
        words_per_symbol(self.s, 4)
    }
}

/// The FEC NIC through its register map: CB-LT encode and decode with the software codec's
/// results, on any [`Device`].
pub struct FecNic {
    dev: Box<dyn Device>,
    /// What the NIC was built with, read at [`FecNic::open`].
    pub caps: Caps,
    /// The deadline of every wait.
    pub timeout: Duration,
}

fn header_of(w0: u32, bitset: u64) -> Header {
    let mut b = [0u8; HEADER_LEN];
    b[..4].copy_from_slice(&w0.to_be_bytes());
    b[4..].copy_from_slice(&bitset.to_be_bytes());
    Header::parse(&b).expect("12 bytes always parse")
}

impl FecNic {
    /// Open the NIC behind a `cbnic` engine name (`sim`, `sim-small`, `sim:MAILBOX`,
    /// `vfio:ADDR`, `mmap:PATH`).
    pub fn open_engine(name: &str) -> Result<FecNic> {
        match crate::device::Engine::parse(name)? {
            crate::device::Engine::Soft => {
                Err(NicError::BadInput("this needs a NIC: sim, sim-small, sim:MAILBOX, vfio:ADDR or mmap:PATH (`soft` is the software codec)".into()))
            }
            e => FecNic::open(e.open()?),
        }
    }

    /// Check the ID, version and capabilities of the device.
    pub fn open(mut dev: Box<dyn Device>) -> Result<FecNic> {
        let what = dev.describe();
        let id = dev.read32(reg::ID)?;
        if id != MAGIC {
            return Err(NicError::WrongId { what, id });
        }
        let version = dev.read32(reg::VERSION)?;
        if version >> 16 != VERSION >> 16 {
            return Err(NicError::Version { what, found: version });
        }
        let (c, l) = (dev.read32(reg::CAPS)?, dev.read32(reg::LAYOUT)?);
        let caps = Caps {
            s: fields::CAPS::s.get(c) as usize,
            k_max: fields::CAPS::k_max.get(c) as usize,
            word_bytes: fields::CAPS::word_bytes.get(c) as usize,
            sa: fields::LAYOUT::sa.get(l) as usize,
            tx_slots: fields::LAYOUT::tx_slots.get(l) as usize,
            cq_depth: fields::LAYOUT::cq_depth.get(l) as usize,
        };
        let sane = (1..=hdl::cblt::S_MAX).contains(&caps.s)
            && (1..=64).contains(&caps.k_max)
            && caps.word_bytes == 4
            && caps.sa <= 13
            && words_per_symbol(caps.s, 4) <= 1 << caps.sa;
        if !sane {
            return Err(NicError::Device(format!("{what}: capabilities {c:#010x} / layout {l:#010x} make no sense for this driver")));
        }
        Ok(FecNic { dev, caps, timeout: Duration::from_secs(10) })
    }

    /// The device under the driver, for raw register access.
    pub fn device(&mut self) -> &mut dyn Device {
        self.dev.as_mut()
    }

    /// What the device is, for messages.
    pub fn describe(&self) -> String {
        self.dev.describe()
    }

    /// Every readable register's value (the first of an array), in offset order.
    pub fn dump(&mut self) -> Result<Vec<(&'static Register, u32)>> {
        let mut regs: Vec<&'static Register> = REGISTERS.iter().filter(|r| r.access.readable()).collect();
        regs.sort_by_key(|r| r.offset);
        regs.into_iter().map(|r| Ok((r, self.dev.read32(r.offset)?))).collect()
    }

    /// The 64-bit cycle counter.
    pub fn cycles(&mut self) -> Result<u64> {
        let lo = self.dev.read32(reg::CYCLES_LO)?;
        let hi = self.dev.read32(reg::CYCLES_HI)?;
        Ok(lo as u64 | (hi as u64) << 32)
    }

    /// Poll `off` until `done(value)`; `what` names the wait in the timeout error.
    fn wait(&mut self, off: u32, what: &str, done: impl Fn(u32) -> bool) -> Result<u32> {
        let t0 = Instant::now();
        loop {
            let v = self.dev.read32(off)?;
            if done(v) {
                return Ok(v);
            }
            if t0.elapsed() > self.timeout {
                return Err(NicError::Timeout { what: format!("{what} on {}", self.dev.describe()), after: self.timeout });
            }
        }
    }

    // ---- encoder ----

    /// Load the message and start the encoder: it emits `limit` symbols (0 = until
    /// [`FecNic::stop_encode`]). Returns k.
    pub fn start_encode(&mut self, msg: &[u8], p: &EncodeParams, limit: u32) -> Result<usize> {
        if p.s != self.caps.s {
            return Err(NicError::BadInput(format!("this NIC codes symbols of S = {} bytes, not {}", self.caps.s, p.s)));
        }
        if msg.len() > self.caps.max_message() {
            return Err(NicError::MessageTooLarge { size: msg.len(), max: self.caps.max_message() });
        }
        let k = symbols_for(msg.len(), p.s).map_err(|e| NicError::BadInput(e.to_string()))?;
        if p.seed == 0 {
            return Err(NicError::BadInput("the seed must be nonzero (xorshift32 has no zero state)".into()));
        }
        let table = match &p.table {
            Some(t) => t.clone(),
            None => DegreeTable::default_for(k).map_err(|e| NicError::BadInput(e.to_string()))?,
        };
        table.validate(k).map_err(|e| NicError::BadInput(e.to_string()))?;
        self.stop_encode()?;
        let wps = self.caps.words_per_symbol();
        let image = buffer_image(msg, p.s, 4, self.caps.sa);
        for sym in image.chunks(wps) {
            let words: Vec<u32> = sym.iter().map(|(_, w)| w[0]).collect();
            self.dev.write_block(TX_MESSAGE.offset + 4 * sym[0].0, &words)?;
        }
        let refused = self.dev.read32(reg::ENC_REFUSED)?;
        for (csr, v) in start_writes(k, msg.len(), p.msg_id, p.seed, &table, limit) {
            self.dev.write32(reg::ENC_CTRL + 4 * csr as u32, v)?;
        }
        if self.dev.read32(reg::ENC_REFUSED)? != refused {
            return Err(NicError::Device(format!("the encoder refused the start (k = {k}, MSG_SIZE = {})", msg.len())));
        }
        Ok(k)
    }

    /// The next coded symbol as its UDP payload (header ‖ S bytes), or `None` once the encoder
    /// has stopped and the queue is empty.
    pub fn next_symbol(&mut self) -> Result<Option<Vec<u8>>> {
        let st = self.wait(reg::ENC_STATUS, "a coded symbol from the encoder", |v| {
            fields::ENC_STATUS::tx_count.get(v) > 0 || fields::ENC_STATUS::busy.get(v) == 0
        })?;
        if fields::ENC_STATUS::tx_count.get(st) == 0 {
            return Ok(None);
        }
        let mut h = [0u32; 3];
        self.dev.read_block(reg::TX_HDR, &mut h)?;
        let mut words = vec![0u32; self.caps.words_per_symbol()];
        self.dev.read_block(TX_SYMBOL.offset, &mut words)?;
        self.dev.write32(reg::TX_POP, fields::TX_POP::pop.set(1))?;
        let mut pkt = header_of(h[0], (h[1] as u64) << 32 | h[2] as u64).pack().to_vec();
        pkt.extend(words.iter().flat_map(|w| w.to_le_bytes()).take(self.caps.s));
        Ok(Some(pkt))
    }

    /// Stop the encoder on a symbol boundary and empty the TX queue.
    pub fn stop_encode(&mut self) -> Result<()> {
        self.dev.write32(reg::ENC_CTRL, fields::ENC_CTRL::stop.set(1))?;
        let t0 = Instant::now();
        loop {
            let st = self.dev.read32(reg::ENC_STATUS)?;
            if fields::ENC_STATUS::busy.get(st) == 0 {
                break;
            }
            // a full queue holds the encoder: make room so it reaches the boundary
            if fields::ENC_STATUS::tx_count.get(st) > 0 {
                self.dev.write32(reg::TX_POP, fields::TX_POP::pop.set(1))?;
            }
            if t0.elapsed() > self.timeout {
                return Err(NicError::Timeout { what: format!("the encoder to stop on {}", self.dev.describe()), after: self.timeout });
            }
        }
        self.dev.write32(reg::CTRL, fields::CTRL::tx_flush.set(1))
    }

    /// The first `n` symbols of the message's stream, as UDP payloads.
    pub fn encode(&mut self, msg: &[u8], p: &EncodeParams, n: usize) -> Result<Vec<Vec<u8>>> {
        self.start_encode(msg, p, n as u32)?;
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            match self.next_symbol()? {
                Some(s) => out.push(s),
                None => return Err(NicError::Device(format!("the encoder stopped after {} of {n} symbols", out.len()))),
            }
        }
        Ok(out)
    }

    // ---- decoder ----

    /// Forget the decoder's context and tombstone, the RX message and the completion queue.
    pub fn clear_rx(&mut self) -> Result<()> {
        self.dev.write32(reg::CTRL, fields::CTRL::rx_clear.set(1))
    }

    /// Let the NIC fail a message by itself when none of its symbols arrives for `limit` ticks
    /// of `tick_clocks` core clocks (`RX_IDLE_LIMIT`, `RX_TICK_DIV`): its record comes back
    /// failed ([`FecNic::take_record`]) and the context is freed for the next message; a
    /// delivered message's tombstone is forgotten after as long. `limit` 0 turns it off (the
    /// reset), and so does [`FecNic::decode`]. The period restarts with this call.
    pub fn set_idle_expiry(&mut self, tick_clocks: u32, limit: u16) -> Result<()> {
        if limit != 0 && tick_clocks == 0 {
            return Err(NicError::BadInput("an idle limit needs ticks: tick_clocks must be nonzero".into()));
        }
        self.dev.write32(reg::RX_TICK_DIV, tick_clocks)?;
        self.dev.write32(reg::RX_IDLE_LIMIT, limit as u32)
    }

    /// Feed one UDP payload to the decoder and return its outcome. A packet longer than
    /// `RX_LEN` can say (65,535 bytes) is fed as 65,535 bytes long: INVALID (`PayloadLength`)
    /// as on every engine, never mistaken for a packet of 2^16 fewer bytes.
    pub fn push(&mut self, packet: &[u8]) -> Result<RxResult> {
        let st = self.wait(reg::RX_STATUS, "the RX staging buffer", |v| fields::RX_STATUS::feeding.get(v) == 0)?;
        let seq = fields::RX_STATUS::result_seq.get(st);
        let mut h = [0u8; HEADER_LEN];
        let n = packet.len().min(HEADER_LEN);
        h[..n].copy_from_slice(&packet[..n]);
        let payload = &packet[n..];
        let room = 4usize << self.caps.sa;
        let words: Vec<u32> = payload[..payload.len().min(room)]
            .chunks(4)
            .map(|c| {
                let mut b = [0u8; 4];
                b[..c.len()].copy_from_slice(c);
                u32::from_le_bytes(b)
            })
            .collect();
        if !words.is_empty() {
            self.dev.write_block(RX_STAGE.offset, &words)?;
        }
        let w0 = u32::from_be_bytes(h[..4].try_into().unwrap());
        let bits = u64::from_be_bytes(h[4..].try_into().unwrap());
        let len = packet.len().min(u16::MAX as usize) as u32;
        // RX_HDR, RX_BITSET_HI, RX_BITSET_LO, RX_LEN, RX_PUSH are consecutive
        const _: () = assert!(reg::RX_PUSH == reg::RX_HDR + 16 && reg::RX_LEN == reg::RX_HDR + 12);
        self.dev.write_block(reg::RX_HDR, &[w0, (bits >> 32) as u32, bits as u32, len, fields::RX_PUSH::push.set(1)])?;
        self.wait(reg::RX_STATUS, "the decoder's result", |v| fields::RX_STATUS::result_seq.get(v) != seq)?;
        let mut r = [0u32; 4];
        self.dev.read_block(reg::RX_RESULT, &mut r)?;
        let (code, reason) = (fields::RX_RESULT::status.get(r[0]), fields::RX_RESULT::reason.get(r[0]));
        let status = match code {
            0 => Status::Invalid(Invalid::from_code(reason as u8).ok_or_else(|| {
                NicError::Device(format!("the decoder reported INVALID with reason {reason}, which the driver's framing cannot cause"))
            })?),
            1 => Status::Redundant,
            2 => Status::Innovative,
            3 => Status::Complete,
            4 => Status::AfterComplete,
            c => return Err(NicError::Device(format!("the decoder reported status code {c}"))),
        };
        let stop = matches!(status, Status::Complete | Status::AfterComplete).then(|| header_of(r[3], 0));
        Ok(RxResult { status, rank: fields::RX_RESULT::rank.get(r[0]) as usize, known_mask: r[1] as u64 | (r[2] as u64) << 32, stop })
    }

    /// The delivered message and its completion record (after a COMPLETE), releasing both.
    pub fn take_message(&mut self) -> Result<(Vec<u8>, RxRecord)> {
        self.wait(reg::RX_STATUS, "the decoded message", |v| fields::RX_STATUS::msg_ready.get(v) == 1)?;
        let bytes = self.dev.read32(reg::RX_MSG_BYTES)? as usize;
        let (s, wps) = (self.caps.s, self.caps.words_per_symbol());
        let mut msg = Vec::with_capacity(bytes);
        let mut row = vec![0u32; wps];
        let mut i = 0u32;
        while msg.len() < bytes {
            self.dev.read_block(RX_MESSAGE.offset + 4 * (i << self.caps.sa), &mut row)?;
            let take = s.min(bytes - msg.len());
            msg.extend(row.iter().flat_map(|w| w.to_le_bytes()).take(take));
            i += 1;
        }
        self.dev.write32(reg::RX_MSG_ACK, fields::RX_MSG_ACK::ack.set(1))?;
        let rec = self.take_record()?;
        Ok((msg, rec))
    }

    /// The head of the completion queue, popped.
    pub fn take_record(&mut self) -> Result<RxRecord> {
        self.wait(reg::RX_STATUS, "a completion record", |v| fields::RX_STATUS::cq_count.get(v) > 0)?;
        let mut c = [0u32; 7];
        self.dev.read_block(reg::CQ_HEAD, &mut c)?;
        self.dev.write32(reg::CQ_POP, fields::CQ_POP::pop.set(1))?;
        Ok(RxRecord {
            failed: fields::CQ_HEAD::failed.get(c[0]) == 1,
            rank: fields::CQ_HEAD::rank.get(c[0]) as usize,
            header: header_of(c[1], 0),
            known_mask: c[2] as u64 | (c[3] as u64) << 32,
            seen: c[4] as u64,
            redundant: c[5] as u64,
            invalid: c[6] as u64,
        })
    }

    /// Decode UDP payloads in order, from a clear decoder with no idle expiry: the report every
    /// engine gives ([`crate::stream`]).
    pub fn decode(&mut self, packets: &[Vec<u8>]) -> Result<StreamReport> {
        decode_stream(self, packets)
    }
}

impl Receive for FecNic {
    fn config(&self) -> RxConfig {
        RxConfig { s: self.caps.s, k_max: self.caps.k_max }
    }
    fn clear(&mut self) -> Result<()> {
        self.set_idle_expiry(0, 0)?;
        self.clear_rx()
    }
    fn push(&mut self, packet: &[u8]) -> Result<RxResult> {
        FecNic::push(self, packet)
    }
    fn take_delivery(&mut self) -> Result<(Vec<u8>, RxRecord)> {
        self.take_message()
    }
}
