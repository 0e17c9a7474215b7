-- CB-LT (CloudBurst's LT code) dissector for Wireshark and tshark.
--
-- The UDP payload of a CB-LT packet is a 12-byte big-endian header and, for a data symbol,
-- S payload bytes (CB-LT §6.3):
--   bytes 0..3   W0 = NPKT[31:26] | MSG_SIZE[25:8] | MSG_ID[7:0]     (NPKT = k - 1)
--   bytes 4..11  BITSET: bit i set <=> source symbol x_i is XORed into the payload
--   bytes 12..   payload, S bytes; none for a STOP (BITSET = 0, receiver -> sender)
--
-- Install (Wireshark 3.x/4.x personal plugins folder):
--   mkdir -p ~/.local/lib/wireshark/plugins && cp host-driver/wireshark/cblt.lua ~/.local/lib/wireshark/plugins/
-- or for one run:  tshark -X lua_script:host-driver/wireshark/cblt.lua -r capture.pcap
--
-- It decodes UDP port 47000 (the project's captures; CB-LT has no assigned port); use
-- "Decode As... > CBLT" for another port. The validity rules of §6.3 that the packet alone can
-- check (S taken as this packet's payload length) are flagged as expert warnings.

local cblt = Proto("cblt", "CloudBurst LT code (CB-LT)")

local f = cblt.fields
f.w0       = ProtoField.uint32("cblt.w0", "W0", base.HEX)
f.npkt     = ProtoField.uint32("cblt.npkt", "NPKT (k - 1)", base.DEC, nil, 0xFC000000)
f.msg_size = ProtoField.uint32("cblt.msg_size", "MSG_SIZE", base.DEC, nil, 0x03FFFF00)
f.msg_id   = ProtoField.uint32("cblt.msg_id", "MSG_ID", base.DEC, nil, 0x000000FF)
f.k        = ProtoField.uint8("cblt.k", "k (source symbols)", base.DEC)
f.bitset   = ProtoField.uint64("cblt.bitset", "BITSET", base.HEX)
f.degree   = ProtoField.uint8("cblt.degree", "Degree (symbols XORed)", base.DEC)
f.symbols  = ProtoField.string("cblt.symbols", "Source symbols")
f.stop     = ProtoField.bool("cblt.stop", "STOP")
f.s        = ProtoField.uint16("cblt.s", "Symbol size S (this packet)", base.DEC)
f.payload  = ProtoField.bytes("cblt.payload", "Payload")

local e_short   = ProtoExpert.new("cblt.short", "Shorter than the 12-byte header", expert.group.MALFORMED, expert.severity.ERROR)
local e_size0   = ProtoExpert.new("cblt.size_zero", "MSG_SIZE is 0", expert.group.MALFORMED, expert.severity.WARN)
local e_beyond  = ProtoExpert.new("cblt.bitset_beyond_k", "BITSET has a bit at or above k", expert.group.MALFORMED, expert.severity.WARN)
local e_npkt    = ProtoExpert.new("cblt.npkt_mismatch", "NPKT + 1 differs from ceil(MSG_SIZE / S)", expert.group.MALFORMED, expert.severity.WARN)
local e_toolarge = ProtoExpert.new("cblt.size_too_large", "MSG_SIZE above 64 x S", expert.group.MALFORMED, expert.severity.WARN)
cblt.experts = { e_short, e_size0, e_beyond, e_npkt, e_toolarge }

function cblt.dissector(buf, pinfo, tree)
    local len = buf:len()
    if len == 0 then return 0 end
    pinfo.cols.protocol = "CB-LT"
    local t = tree:add(cblt, buf(), "CloudBurst LT code")
    if len < 12 then
        t:add_proto_expert_info(e_short)
        pinfo.cols.info = "CB-LT truncated (" .. len .. " bytes)"
        return len
    end
    local w0 = buf(0, 4):uint()
    local npkt = bit.rshift(w0, 26)
    local k = npkt + 1
    local size = bit.band(bit.rshift(w0, 8), 0x3FFFF)
    local id = bit.band(w0, 0xFF)
    local w = t:add(f.w0, buf(0, 4))
    w:add(f.npkt, buf(0, 4))
    w:add(f.msg_size, buf(0, 4))
    w:add(f.msg_id, buf(0, 4))
    t:add(f.k, k):set_generated()
    local bits = buf(4, 8):uint64()
    local bt = t:add(f.bitset, buf(4, 8))
    local set = {}
    for i = 0, 63 do
        if not (bits:rshift(i):band(UInt64(1)) == UInt64(0)) then set[#set + 1] = i end
    end
    local is_stop = (#set == 0)
    t:add(f.stop, is_stop):set_generated()
    if is_stop then
        pinfo.cols.info = string.format("CB-LT STOP  MSG_ID=%d k=%d MSG_SIZE=%d", id, k, size)
        return len
    end
    bt:add(f.degree, #set):set_generated()
    bt:add(f.symbols, "x" .. table.concat(set, " + x")):set_generated()
    local s = len - 12
    t:add(f.s, s):set_generated()
    if s > 0 then t:add(f.payload, buf(12)) end
    if size == 0 then t:add_proto_expert_info(e_size0) end
    if s > 0 and size > 64 * s then t:add_proto_expert_info(e_toolarge) end
    if s > 0 and size > 0 and k ~= math.ceil(size / s) then t:add_proto_expert_info(e_npkt) end
    if set[#set] >= k then t:add_proto_expert_info(e_beyond) end
    pinfo.cols.info = string.format("CB-LT data  MSG_ID=%d k=%d MSG_SIZE=%d degree=%d {%s}", id, k, size, #set, table.concat(set, ","))
    return len
end

DissectorTable.get("udp.port"):add(47000, cblt)
