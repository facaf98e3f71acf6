// Recipient filter: members who blocked the sender do not receive its messages. The
// blocklist here is a constant; a real one would come from your app's data. Returning
// toPeers narrows who receives the message; it cannot add anyone.
const BLOCKED_BY = {
  // sender: [members who blocked them]
  spammer: ['alice', 'bob'],
};

AV.Cloud.onIMMessageReceived((request) => {
  const blockers = BLOCKED_BY[request.params.fromPeer];
  if (!blockers) return {};
  return { toPeers: request.params.toPeers.filter((peer) => !blockers.includes(peer)) };
});
