'use client';
import { type ChangeEvent, useId } from 'react';
import { cn } from '../../lib/cn';
import { Textarea } from '../ui/textarea';

/** A labelled textarea with a live character counter (announced politely, not on every key). */
export function TextArea(props: {
  label: string;
  name: string;
  value: string;
  max: number;
  errors?: string[] | undefined;
  onChange: (e: ChangeEvent<HTMLTextAreaElement>) => void;
}) {
  const id = useId();
  const count = [...props.value].length;
  const over = count > props.max;
  const describedBy = [`${id}-count`, props.errors?.length ? `${id}-errors` : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <Textarea
        id={id}
        name={props.name}
        value={props.value}
        onChange={props.onChange}
        aria-invalid={over || props.errors?.length ? true : undefined}
        aria-describedby={describedBy}
      />
      <span
        id={`${id}-count`}
        className={cn('self-end text-sm text-muted-foreground', over && 'text-destructive')}
        data-testid={`${props.name}-counter`}
      >
        {count} / {props.max}
      </span>
      {props.errors?.length ? (
        <ul id={`${id}-errors`} className="field-errors" data-field-errors={props.name}>
          {props.errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
