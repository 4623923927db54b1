// The cost of a submit, the balance after, and why it is refused or what to watch for (renderer/src/cost-quote.ts).
import type { Quote } from '../cost-quote.ts';

export function CostLine({ quote, id }: { quote: Quote; id: string }) {
  return (
    <div
      id={id}
      class={`cost-line${quote.refusal ? ' cost-short' : quote.warning ? ' cost-warn' : ''}`}
      data-testid="cost-line"
    >
      <p class="cost-text">{quote.text}</p>
      {quote.refusal && (
        <p class="cost-refusal" role="alert">
          {quote.refusal}
        </p>
      )}
      {quote.warning && <p class="cost-warning">{quote.warning}</p>}
    </div>
  );
}
