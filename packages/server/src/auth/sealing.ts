import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * What the service keeps of a secret it must read back: AES-256-GCM with a key derived by HKDF from the
 * service's signing secret, one key per purpose (two-factor secrets, backups' game passwords). A sealed
 * text is `v1:<iv>:<tag>:<data>` (base64). Opening it with another key (another signing secret, after a
 * rotation or on another instance) fails: the tag does not match.
 */
export class Sealer {
  private readonly key: Buffer;

  constructor(signingSecret: string, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', signingSecret, 'garrison', purpose, 32));
  }

  seal(text: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join(':');
  }

  /** The text; throws NotOpened when it was sealed with another key or changed since. */
  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new NotOpened('not a sealed text');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
    } catch (err) {
      throw new NotOpened('sealed with another key, or changed since', { cause: err });
    }
  }
}

/** A sealed text this sealer cannot open. */
export class NotOpened extends Error {}
