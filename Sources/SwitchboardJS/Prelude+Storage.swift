extension Prelude {
    /// `AV.Object`, `AV.Query` and the rest of LeanStorage's API, part of the prelude's scope
    /// (they use `ask`): the app's classes, `_Conversation` among them, read and written
    /// through the server's `AppData` with master rights.
    static let storage = storageTypes + storageOps + storageObject + storageSaves + storageClasses + storageQuery + #"""
      // _User is an ordinary class here: no logins, sessions or passwords.
      const AVUser = AVObject.extend('_User', {
        getUsername() { return this.get('username'); },
        setUsername(username) { return this.set('username', username); },
        getEmail() { return this.get('email'); },
        setEmail(email) { return this.set('email', email); },
        getMobilePhoneNumber() { return this.get('mobilePhoneNumber'); },
        setMobilePhoneNumber(number) { return this.set('mobilePhoneNumber', number); },
      });
      AVUser.current = () => null;
      for (const name of ['logIn', 'signUp', 'become', 'logInWithMobilePhone', 'requestPasswordReset']) {
        AVUser[name] = () => unavailable('AV.User.' + name);
      }
    """#
}
