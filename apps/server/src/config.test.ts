import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has defaults that need nothing set', () => {
    expect(loadConfig({})).toMatchObject({ PORT: 8080, MQTT_PORT: 1883, SIM_LOCKS: 50, SIM_HEARTBEAT_S: 30, AUTH_CAPTCHA: true, DATA_DIR: './data' });
  });

  it('treats empty variables as unset', () => {
    const config = loadConfig({ MQTT_URL: '', DATABASE_URL: '', PORT: '' });
    expect(config.MQTT_URL).toBeUndefined();
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.PORT).toBe(8080);
  });

  it('names the bad variables', () => {
    expect(() => loadConfig({ PORT: 'eighty', AUTH_CAPTCHA: 'maybe' })).toThrow(/PORT.*AUTH_CAPTCHA|AUTH_CAPTCHA.*PORT/);
  });

  it('reads AUTH_CAPTCHA=off', () => {
    expect(loadConfig({ AUTH_CAPTCHA: 'off' }).AUTH_CAPTCHA).toBe(false);
  });
});
