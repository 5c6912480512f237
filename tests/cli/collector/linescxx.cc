// linescxx.cc — collector-lines.sh: accesses between calls that C++ makes
// through invoke (a call that may throw, in a scope with destructors to
// run): std::mutex and std::lock_guard, std::condition_variable (waits and
// notifications inside libstdc++), new and delete, std::string,
// std::thread; two invokes that continue to one block. Which line each access is reported at is checked against
// the compiler's debug locations, not against this file.
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {
constexpr int T = 3, N = 25;
std::mutex m;
std::condition_variable cv;
long counter;
long percpu[T];
int turn;

// Two calls that may throw, one or the other: their invokes continue to one
// block (a phi of the two results).
__attribute__((noinline)) long size_of(const std::string &s)
{
    if (s.size() > 1000)
        throw 1;
    return long(s.size());
}

__attribute__((noinline)) long first_of(const std::string &s)
{
    if (s.empty())
        throw 2;
    return long(s[0]);
}

void work(int id)
{
    std::string name(24, char('a' + id));
    for (int i = 0; i < N; i++) {
        {
            std::lock_guard<std::mutex> g(m);
            counter += long(name.size());
        }
        percpu[id]++;
        m.lock();
        counter--;
        m.unlock();
        percpu[id] += 2;
        long x = (i + id) & 1 ? size_of(name) : first_of(name);
        percpu[id] += x;
    }
    {
        std::unique_lock<std::mutex> l(m);
        cv.wait(l, [id] { return turn == id; });
        turn++;
        counter += turn;
    }
    cv.notify_all();
    percpu[id] *= 3;
    std::vector<long> *v = new std::vector<long>(8, id);
    percpu[id] += (*v)[7];
    delete v;
    percpu[id]--;
}
} // namespace

int main()
{
    std::vector<std::thread> th;
    for (int i = 0; i < T; i++)
        th.emplace_back(work, i);
    for (auto &t : th)
        t.join();
    std::printf("%ld %ld\n", counter, percpu[0] + percpu[1] + percpu[2]);
}
