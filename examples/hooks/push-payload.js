// Push payload builder: for members who were offline, push the sender's text, shortened,
// with a badge; mentioned members get a louder alert. Returning { skip: true } sends none.
AV.Cloud.onIMReceiversOffline((request) => {
  const params = request.params;
  let text = '';
  try {
    const typed = JSON.parse(params.content);
    text = typeof typed._lctext === 'string' ? typed._lctext : '[' + (typed._lctype === -2 ? 'image' : 'message') + ']';
  } catch (e) {
    text = params.content;
  }
  if (text.length > 60) text = text.slice(0, 57) + '...';
  const mentioned = params.mentionAll || params.mentionOfflinePeers.length > 0;
  return {
    pushMessage: {
      alert: (mentioned ? '@ ' : '') + params.fromPeer + ': ' + text,
      badge: 'Increment',
      sound: mentioned ? 'mention.caf' : 'default',
      convId: params.convId,
    },
  };
});
