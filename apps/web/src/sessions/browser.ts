/** A user agent summarised for a person: "Chrome 130 · Linux", by bowser. */
import Bowser from 'bowser';

/** `Browser version · OS` from `userAgent` (major version only); the raw string cut to 60 characters when bowser knows neither; undefined without one. */
export function browserSummary(userAgent: string | null): string | undefined {
  if (!userAgent) return undefined;
  const { browser, os } = Bowser.parse(userAgent);
  const name = [browser.name, browser.version?.split('.')[0]].filter(Boolean).join(' ');
  const system = [os.name, os.versionName ?? os.version].filter(Boolean).join(' ');
  if (!name && !system) return userAgent.length > 60 ? `${userAgent.slice(0, 59)}…` : userAgent;
  return [name, system].filter(Boolean).join(' · ');
}
