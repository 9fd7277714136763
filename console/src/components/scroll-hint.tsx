/**
 * Said above a table wider than a phone (docs/behaviour/console-layout.md, "Phones"): its last columns are off to
 * the right, a sideways scroll away. Shown only below the medium breakpoint.
 */
export function ScrollHint() {
  return (
    <p className="pf-scroll-hint pf-muted pf-small" data-testid="scroll-hint">
      Scroll the table sideways for more columns →
    </p>
  );
}
