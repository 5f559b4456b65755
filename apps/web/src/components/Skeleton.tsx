/**
 * What a console page shows while its code, its words or the server's user info load (one
 * skeleton, then the page, where a spinner, the filters, a second spinner and then the table followed
 * each other). Plain elements and CSS (styles.css `.skeleton*`), no antd: the shell's skeleton is drawn
 * before antd has loaded. Shaped like a list page (title, filter bar, toolbar, rows) at the place the
 * page will be, so nothing moves when the page replaces it.
 */

/** Grey bars standing for `count` table rows (ServerTable's first load draws them too). */
export function SkeletonRows({ count = 8 }: { count?: number }) {
  return (
    <div className="skeleton-rows" aria-hidden="true">
      {Array.from({ length: count }, (_, row) => `row-${row}`).map((key) => <div key={key} className="skeleton-row"><span className="skeleton-bar" /></div>)}
    </div>
  );
}

/** A list page's skeleton, inside the console layout. */
export function PageSkeleton() {
  return (
    <div className="page-skeleton" aria-busy="true">
      <div className="page-card">
        <div className="skeleton-filters">
          <span className="skeleton-bar" /><span className="skeleton-bar" /><span className="skeleton-bar skeleton-button" />
        </div>
        <div className="skeleton-toolbar"><span className="skeleton-bar skeleton-button" /></div>
        <div className="skeleton-head" />
        <SkeletonRows />
      </div>
    </div>
  );
}

/** The whole console's skeleton (menu, header, tab strip, the page's title and a list) while the console's code loads. */
export function ShellSkeleton({ title }: { title?: string }) {
  return (
    <div className="shell-skeleton" aria-busy="true">
      <div className="shell-skeleton-sider" />
      <div className="shell-skeleton-main">
        <div className="console-header-bar" />
        <div className="shell-skeleton-tabs" />
        <div className="console-content">
          {title && <h1 className="page-header">{title}</h1>}
          <PageSkeleton />
        </div>
      </div>
    </div>
  );
}
