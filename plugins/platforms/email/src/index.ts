/** `@hermes/platform-email`: Email adapter (IMAP IDLE with imapflow, SMTP with nodemailer, threaded replies). Not yet enabled: the definition lands with its adapter. */
export {};
