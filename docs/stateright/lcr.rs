//! LCR (Le Lann, Chang and Roberts) on a unidirectional ring, written for
//! measuring Stateright's checking speed beside `elect check lcr` (not part
//! of Stateright). Each node sends its ID to its successor; a node forwards
//! an ID larger than its own, drops a smaller one, and is elected when its
//! own comes back. Channels are FIFO (Stateright's ordered network).
//!
//!   lcr check N THREADS [all|decreasing|increasing]
//! "all": every assignment of the IDs 1..N that starts with N (one per
//! rotation, as `elect check --ids all`), each checked in turn; the totals
//! are printed at the end.

use stateright::actor::{Actor, ActorModel, Id, Network, Out};
use stateright::{Checker, Expectation, Model};
use std::borrow::Cow;
use std::time::Instant;

#[derive(Clone)]
struct Node {
    id: u64,
    next: Id,
}

impl Actor for Node {
    type Msg = u64;
    type State = bool; // elected
    type Timer = ();
    type Random = ();
    type Storage = ();

    fn on_start(&self, _id: Id, _storage: &Option<Self::Storage>, o: &mut Out<Self>) -> Self::State {
        o.send(self.next, self.id);
        false
    }

    fn on_msg(&self, _id: Id, state: &mut Cow<Self::State>, _src: Id, j: Self::Msg, o: &mut Out<Self>) {
        if j > self.id {
            o.send(self.next, j);
        } else if j == self.id {
            *state.to_mut() = true;
        }
    }
}

fn model(ids: &[u64]) -> ActorModel<Node, (), ()> {
    let n = ids.len();
    ActorModel::new((), ())
        .actors(ids.iter().enumerate().map(|(i, &id)| Node { id, next: Id::from((i + 1) % n) }))
        .init_network(Network::new_ordered(vec![]))
        .property(Expectation::Always, "at most one leader", |_, s| {
            s.actor_states.iter().filter(|e| ***e).count() <= 1
        })
        .property(Expectation::Sometimes, "a leader", |_, s| {
            s.actor_states.iter().any(|e| **e)
        })
}

// permutations of rest appended to prefix.
fn assignments(prefix: &mut Vec<u64>, rest: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
    if rest.is_empty() {
        out.push(prefix.clone());
        return;
    }
    for k in 0..rest.len() {
        let v = rest.remove(k);
        prefix.push(v);
        assignments(prefix, rest, out);
        prefix.pop();
        rest.insert(k, v);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 || args[1] != "check" {
        eprintln!("usage: lcr check N THREADS [all|decreasing|increasing]");
        std::process::exit(2);
    }
    let n: u64 = args[2].parse().expect("N");
    let threads: usize = args[3].parse().expect("THREADS");
    let which = args.get(4).map(String::as_str).unwrap_or("all");
    let configs: Vec<Vec<u64>> = match which {
        "decreasing" => vec![(1..=n).rev().collect()],
        "increasing" => vec![(1..=n).collect()],
        _ => {
            let mut out = Vec::new();
            assignments(&mut vec![n], &mut (1..n).collect(), &mut out);
            out
        }
    };
    let start = Instant::now();
    let (mut states, mut unique) = (0usize, 0usize);
    for ids in &configs {
        let c = model(ids).checker().threads(threads).spawn_bfs().join();
        c.assert_properties();
        states += c.state_count();
        unique += c.unique_state_count();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "lcr n={n} ids={which} configurations={} threads={threads}: states={states} unique={unique} sec={secs:.3} states/s={:.0} unique/s={:.0}",
        configs.len(),
        states as f64 / secs,
        unique as f64 / secs
    );
}
