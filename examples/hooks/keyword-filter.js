// Keyword filter: masks listed words with *** in text messages, as LeanCloud's built-in
// filter does. The sender receives a patch with the filtered text and this hook's code
// (positive: negative codes such as -4408 belong to built-in mechanisms).
// Typed messages ({"_lctype": -1, "_lctext": "..."}) are filtered in _lctext only.
// Copy it into hooks/ and edit WORDS.
const WORDS = ['darn', 'heck', 'frak'];
const pattern = new RegExp(WORDS.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'gi');

function mask(text) {
  return text.replace(pattern, '***');
}

AV.Cloud.onIMMessageReceived((request) => {
  const params = request.params;
  if (params.bin) return {};
  let content = params.content;
  try {
    const typed = JSON.parse(content);
    if (typed && typeof typed._lctext === 'string') {
      const filtered = mask(typed._lctext);
      if (filtered === typed._lctext) return {};
      typed._lctext = filtered;
      return { content: JSON.stringify(typed), code: 1, detail: 'keyword filtered' };
    }
  } catch (e) {
    // Not JSON: a plain text message.
  }
  const filtered = mask(content);
  return filtered === content ? {} : { content: filtered, code: 1, detail: 'keyword filtered' };
});
