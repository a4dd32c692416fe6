// The web app's own script, served as a file (the CSP forbids inline scripts): a button with
// `data-copy="<input id>"` copies that input's value to the clipboard and says so in its `data-copied`
// text for a moment. Without it the value stays in a read-only input to select and copy by hand.
export const APP_SCRIPT = `(() => {
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
    if (!button) return;
    const input = document.getElementById(button.getAttribute('data-copy') || '');
    if (!input || !navigator.clipboard) return;
    event.preventDefault();
    navigator.clipboard.writeText(input.value).then(() => {
      const label = button.textContent;
      button.textContent = button.getAttribute('data-copied') || label;
      setTimeout(() => { button.textContent = label; }, 2000);
    }, () => { input.select(); });
  });
})();
`;
