/**
 * The four operation-log routes, picked by name by the page registry's lazy imports.
 * @public (knip 5 cannot follow `module[name]`)
 */
import { credentialEndpoints } from '@iot/contract';
import { OperationLogPage } from './OperationLogPage';

/** @public */
export const OperateUserLogPage = () => <OperationLogPage endpoint={credentialEndpoints.user.log} />;
/** @public */
export const OperatePasswordLogPage = () => <OperationLogPage endpoint={credentialEndpoints.password.log} />;
/** @public */
export const OperateCardLogPage = () => <OperationLogPage endpoint={credentialEndpoints.card.log} />;
/** @public */
export const OperateFpLogPage = () => <OperationLogPage endpoint={credentialEndpoints.fp.log} />;
