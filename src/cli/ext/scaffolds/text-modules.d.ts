// The scaffold programs are imported as text (`with { type: "text" }`); to the type checker each is a string.
declare module "*.py" {
  const text: string;
  export default text;
}
declare module "*.sh" {
  const text: string;
  export default text;
}
declare module "*.go" {
  const text: string;
  export default text;
}
declare module "*.mjs" {
  const text: string;
  export default text;
}
