// Package general holds the election algorithms for any connected network
// (topology class elect.General): nodes know only their own ports, numbered
// 0..degree-1, and nothing of the graph's shape. Each algorithm is a pure
// state machine in its own file, which names its source and states its rules.
//
//   - Echo (echo.go): asynchronous election by echo waves with extinction,
//     seed 001 section 5.3.
//   - FloodMax (floodmax.go): the synchronous baseline that floods the
//     largest ID for a known bound on the diameter (Lynch, section 4.1).
//   - YoYo (yoyo.go): Santoro's YO-YO with pruning, asynchronous, elects
//     the minimum.
//   - HyperElect (hyperelect.go): Flocchini and Mans's duels on hypercubes
//     whose port k leads along dimension k (a sense of direction); it runs
//     on hypercubes only.
//   - PetersonMesh (mesh.go): election among the four corners of an a x b
//     mesh on its border ring, then a flood (Peterson 1984, as Santoro's
//     chapter on meshes presents it); it runs on grids only.
//
// The others also run on rings (ports Left and Right) and complete graphs.
package general
