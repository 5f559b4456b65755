/** Centered spinner for lazy pages and pending user info. */
import { Spin } from 'antd';

/** A centered, non-blocking spinner. */
export function PageSpin() {
  return (
    <div className="page-spin">
      <Spin />
    </div>
  );
}
