// The table designer used by the rule page. It is built in studio/src/designer (its own module and owner); until
// it is merged this points at a read-only stand-in with the same props.
export { TableDesigner } from './designer-placeholder.tsx';
