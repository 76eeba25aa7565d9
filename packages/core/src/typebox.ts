// The one place TypeBox is imported from: swapping the TypeBox line is a change to this file only.
export { Type, Kind, OptionalKind, FormatRegistry } from '@sinclair/typebox';
export type { Static, TSchema, TObject, TProperties, TArray, TString, TInteger, TNumber, TBoolean } from '@sinclair/typebox';
export { TypeCompiler } from '@sinclair/typebox/compiler';
export type { TypeCheck } from '@sinclair/typebox/compiler';
export { Value } from '@sinclair/typebox/value';
export type { ValueError } from '@sinclair/typebox/value';
