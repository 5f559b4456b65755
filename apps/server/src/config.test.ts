import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { awakeMsFor } from './gateway/outbox/dispatcher.js';

describe('loadConfig', () => {
  it('has defaults that need nothing set', () => {
    expect(loadConfig({})).toMatchObject({ PORT: 8080, MQTT_PORT: 1883, SIM_LOCKS: 50, SIM_HEARTBEAT_S: 60, SIM_AIR_SWITCH_INTERVAL_S: 30, AUTH_CAPTCHA: true, DATA_DIR: './data' });
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

  it('runs the demo by default on the embedded database and not on PostgreSQL, unless DEMO says so', () => {
    expect(loadConfig({}).DEMO).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/iot' }).DEMO).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/iot', DEMO: 'on' }).DEMO).toBe(true);
    expect(loadConfig({ DEMO: 'off' }).DEMO).toBe(false);
    expect(() => loadConfig({ DEMO: 'sometimes' })).toThrow(/DEMO/);
  });

  it('reads AUTH_CAPTCHA=off', () => {
    expect(loadConfig({ AUTH_CAPTCHA: 'off' }).AUTH_CAPTCHA).toBe(false);
  });

  it('reads the wake window (default the protocol\'s 10 s) and per-lock simulated heartbeat intervals', () => {
    expect(loadConfig({ WAKE_WINDOW_MS: '' })).toMatchObject({ WAKE_WINDOW_MS: 10_000, SIM_HEARTBEAT_S_BY_IMEI: {} });
    expect(loadConfig({ WAKE_WINDOW_MS: '2000', SIM_HEARTBEAT_S_BY_IMEI: '861234500000001:10,861234500000003:600' }))
      .toMatchObject({ WAKE_WINDOW_MS: 2000, SIM_HEARTBEAT_S_BY_IMEI: { '861234500000001': 10, '861234500000003': 600 } });
    expect(() => loadConfig({ SIM_HEARTBEAT_S_BY_IMEI: '861234500000001=10' })).toThrow(/SIM_HEARTBEAT_S_BY_IMEI/);
    expect(() => loadConfig({ SIM_HEARTBEAT_S_BY_IMEI: '861234500000001:0' })).toThrow(/SIM_HEARTBEAT_S_BY_IMEI/);
  });

  it('keeps the dispatcher\'s safety margin proportionate to the wake window', () => {
    expect(awakeMsFor(10_000)).toBe(8000); // 2 s margin
    expect(awakeMsFor(60_000)).toBe(58_000);
    expect(awakeMsFor(2000)).toBe(1600); // at most a fifth of the window
  });
});
