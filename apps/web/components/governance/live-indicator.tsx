/** Whether figures arrive live over the WebSocket or by polling (signed out, or reconnecting). */
export function LiveIndicator({ live }: { live: boolean }) {
  return (
    <span className={`live ${live ? 'live-on' : ''}`} data-testid="live-indicator" data-live={live}>
      {live ? 'Live' : 'Refreshing every few seconds'}
    </span>
  );
}
