/** The four operation-log routes (default exports for the page registry's lazy imports). */
import { credentialEndpoints } from '@iot/contract';
import { OperationLogPage } from './OperationLogPage';

export const OperateUserLogPage = () => <OperationLogPage endpoint={credentialEndpoints.user.log} />;
export const OperatePasswordLogPage = () => <OperationLogPage endpoint={credentialEndpoints.password.log} />;
export const OperateCardLogPage = () => <OperationLogPage endpoint={credentialEndpoints.card.log} />;
export const OperateFpLogPage = () => <OperationLogPage endpoint={credentialEndpoints.fp.log} />;
