import { useState } from 'preact/hooks';
import { type ListedOperation, type MediaType, refName, type Schema, schemaSummary } from './openapi.js';
import { Prose } from './Prose.js';
import { TryIt } from './TryIt.js';

/** A schema's summary, its component named as a link to the schemas section. */
function SchemaText({ schema }: { schema: Schema | undefined }) {
  const text = schemaSummary(schema);
  if (!schema?.$ref) return <code>{text}</code>;
  return (
    <a href={`#schema-${refName(schema.$ref)}`}>
      <code>{text}</code>
    </a>
  );
}

function Example({ media }: { media: MediaType }) {
  const value = media.example ?? Object.values(media.examples ?? {})[0]?.value;
  if (value === undefined) return null;
  return (
    <details class="example">
      <summary>Example</summary>
      <pre>{typeof value === 'string' ? value : JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}

/** What an opened operation shows: description, parameters, body, responses and a try-out. */
function OperationBody({ op, credentials }: { op: ListedOperation; credentials: Record<string, string> }) {
  const parameters = op.parameters ?? [];
  const body = op.requestBody?.content ? Object.entries(op.requestBody.content) : [];
  return (
    <div class="op-body">
      <Prose text={op.description} />
      {op.security && op.security.length > 0 && (
        <p class="muted">Credentials: {op.security.map((s) => Object.keys(s).join(' + ') || 'none').join(' or ')}</p>
      )}
      {parameters.length > 0 && (
        <table class="params">
          <caption>Parameters</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">In</th>
              <th scope="col">Type</th>
              <th scope="col">Description</th>
            </tr>
          </thead>
          <tbody>
            {parameters.map((p) => (
              <tr key={`${p.in}:${p.name}`}>
                <th scope="row">
                  <code>{p.name}</code>
                  {p.required ? <span class="required"> required</span> : null}
                </th>
                <td>{p.in}</td>
                <td>
                  <SchemaText schema={p.schema} />
                </td>
                <td>
                  <Prose text={p.description} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {body.map(([type, media]) => (
        <section key={type}>
          <h4>
            Request body <span class="muted">{type}</span>
          </h4>
          <Prose text={op.requestBody?.description} />
          <p>
            <SchemaText schema={media.schema} />
          </p>
          <Example media={media} />
        </section>
      ))}
      <h4>Responses</h4>
      <dl class="responses">
        {Object.entries(op.responses ?? {}).map(([status, r]) => (
          <div key={status}>
            <dt>
              <span class={`status s${status[0]}`}>{status}</span>
            </dt>
            <dd>
              <Prose text={r.description} />
              {Object.entries(r.content ?? {}).map(([type, media]) => (
                <div key={type}>
                  <span class="muted">{type}</span> <SchemaText schema={media.schema} />
                  <Example media={media} />
                </div>
              ))}
            </dd>
          </div>
        ))}
      </dl>
      <TryIt op={op} credentials={credentials} />
    </div>
  );
}

/** One operation: method, path and summary; opened (by click or by its #operationId), everything about it. */
export function Operation({ op, credentials }: { op: ListedOperation; credentials: Record<string, string> }) {
  const [open, setOpen] = useState(() => location.hash === `#${op.operationId}`);
  return (
    <details
      class="operation"
      id={op.operationId}
      data-testid="operation"
      data-operation-id={op.operationId}
      open={open}
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>
        <span class={`method ${op.method}`}>{op.method.toUpperCase()}</span> <code class="path">{op.path}</code>{' '}
        <span class="summary">{op.summary}</span>
      </summary>
      {open && <OperationBody op={op} credentials={credentials} />}
    </details>
  );
}
