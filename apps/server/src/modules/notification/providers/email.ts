/**
 * E-mail over SMTP (nodemailer): a text and an HTML part. The SMTP host obeys the egress policy like
 * a push: it is resolved here, every address it resolves to is checked, and nodemailer connects to
 * the checked address (TLS still verifies the certificate against the host name), so a DNS answer
 * cannot change in between. 10 s deadlines for connect, greeting and each command.
 */
import { lookup } from 'node:dns/promises';
import nodemailer from 'nodemailer';
import { addressRefusal, PUSH_TIMEOUT_MS } from '../../subscription/egress.js';
import { missing, type Provider } from './index.js';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The address to connect to for `host`, or why it is refused. */
async function checkedAddress(host: string, policy: Parameters<Provider>[2]): Promise<{ address: string } | { error: string }> {
  try {
    const addresses = await lookup(host === 'localhost' ? '127.0.0.1' : host, { all: true });
    for (const { address } of addresses) {
      const refusal = addressRefusal(address, policy);
      if (refusal) return { error: refusal };
    }
    const first = addresses[0];
    return first ? { address: first.address } : { error: `${host} has no address` };
  } catch (error) {
    return { error: `${host}: ${(error as Error).message}` };
  }
}

export const sendEmail: Provider = async (channel, message, policy) => {
  const settings = channel.email;
  if (!settings) return missing('SMTP settings');
  const started = performance.now();
  const done = (error: string | null) => ({ sent: error === null, status: null, latencyMs: Math.round(performance.now() - started), error });
  const target = await checkedAddress(settings.host, policy);
  if ('error' in target) return done(target.error);
  const transport = nodemailer.createTransport({
    host: target.address, port: settings.port, secure: settings.secure,
    auth: settings.username ? { user: settings.username, pass: channel.password ?? '' } : undefined,
    tls: { servername: settings.host },
    connectionTimeout: PUSH_TIMEOUT_MS, greetingTimeout: PUSH_TIMEOUT_MS, socketTimeout: PUSH_TIMEOUT_MS,
  });
  try {
    const link = message.link ? `\n\n${message.link}` : '';
    await transport.sendMail({
      from: settings.from, to: settings.to, subject: message.title,
      text: `${message.text}${link}`,
      html: `<h3>${escapeHtml(message.title)}</h3><p>${escapeHtml(message.text).replace(/\n/g, '<br>')}</p>${message.link ? `<p><a href="${escapeHtml(message.link)}">${escapeHtml(message.link)}</a></p>` : ''}`,
      headers: { 'X-Iot-Notification-Id': message.id },
    });
    return done(null);
  } catch (error) {
    return done((error as Error).message.slice(0, 300));
  } finally {
    transport.close();
  }
};
