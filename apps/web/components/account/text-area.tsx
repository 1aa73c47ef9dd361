'use client';
import { type ChangeEvent, useId } from 'react';
import { cn } from '../../lib/cn';
import { FieldItem } from '../ui/field';
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
  const count = [...props.value].length;
  const over = count > props.max;
  const counterId = `${useId()}-count`;
  return (
    <FieldItem label={props.label} name={props.name} errors={props.errors} describedBy={counterId}>
      {(control) => (
        <>
          <Textarea
            name={props.name}
            value={props.value}
            onChange={props.onChange}
            {...control}
            aria-invalid={over ? true : control['aria-invalid']}
          />
          <span
            id={counterId}
            className={cn('justify-self-end text-sm text-muted-foreground', over && 'text-destructive')}
            data-testid={`${props.name}-counter`}
          >
            {count} / {props.max}
          </span>
        </>
      )}
    </FieldItem>
  );
}
