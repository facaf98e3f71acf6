// Custom message type validation: an application type 1 ("order") must carry an order id
// and a positive amount in _lcattrs; images (-2) must carry a file URL. Anything else
// typed with a positive _lctype this app does not know is refused. Senders see 4402 with
// the appCode below.
const UNKNOWN_TYPE = 1001;
const MISSING_FIELD = 1002;

AV.Cloud.onIMMessageReceived((request) => {
  if (request.params.bin) return {};
  let typed;
  try {
    typed = JSON.parse(request.params.content);
  } catch (e) {
    return {}; // plain text
  }
  if (!typed || typeof typed._lctype !== 'number') return {};
  const attrs = typed._lcattrs || {};
  switch (typed._lctype) {
    case 1:
      if (typeof attrs.orderId !== 'string' || !(attrs.amount > 0)) {
        return { drop: true, code: MISSING_FIELD, detail: 'an order needs _lcattrs.orderId and a positive _lcattrs.amount' };
      }
      return {};
    case -2:
      if (!typed._lcfile || typeof typed._lcfile.url !== 'string') {
        return { drop: true, code: MISSING_FIELD, detail: 'an image needs _lcfile.url' };
      }
      return {};
    default:
      if (typed._lctype > 0) return { drop: true, code: UNKNOWN_TYPE, detail: 'unknown message type ' + typed._lctype };
      return {};
  }
});
