/**
 * "Skip to content" (docs/behaviour/console-layout.md, "Keyboard"): the first Tab stop of every page, shown when
 * focused; it moves the keyboard focus to the page's `main`, past the navigation. The link is followed by hand
 * (focus, not the URL's hash), so the route and the history stay as they are.
 */
export function SkipLink() {
  return (
    <a
      className="pf-skip-link"
      href="#main-content"
      onClick={(event) => {
        const main = document.querySelector('main');
        if (!main) return;
        event.preventDefault();
        if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
        main.focus();
        main.scrollIntoView({ block: 'start' });
      }}
    >
      Skip to content
    </a>
  );
}
