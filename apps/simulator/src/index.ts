/** @iot/simulator: virtual ZIGUANG locks speaking the device protocol over MQTT (docs/protocol.md). */
export { startFleet, type Fleet, type FleetDevice, type FleetOptions } from './fleet.js';
export { SimulatedLock, type HeartbeatMessage, type LockBehaviour, BATTERY_FLOOR, RSSI_RANGE, SNR_RANGE } from './lock.js';
export { randomInt, seededRandom } from './random.js';
export { ACTIVITY_PRESETS, DEFAULT_ACTIVITY, LockActivity, type ActivityEvent, type ActivityRates } from './activity.js';
export type { LockTables, Random, SimulatedDevice, SimulatorLog } from './types.js';
export { attemptOpen, type AttemptInput, type AttemptReason, type AttemptResult } from './open-attempt.js';
export { AirSwitchState, type LoadProfile, type SimulatedAirSwitch } from './air-switch.js';
export { startAirSwitchFleet, type AirSwitchDevice, type AirSwitchFleet, type AirSwitchFleetOptions } from './air-switch-runner.js';
export { LockOta, OTA_FAILURES, type OtaAction, type OtaBehaviour, type OtaFailure } from './ota.js';
export { signDemoFirmware } from './vendor.js';
